import { sensorRecordRowStub } from '../../../test/fixtures/sensor-record-row.stub.js';
import type { SensorEntity } from '../sensor.entity.js';
import { applyRecord, type ProjectedRecord, trapStatusOf } from './sensor-step.js';

const at = (iso: string) => new Date(iso);
let nextNid = 1;
const record = (changes: Partial<ProjectedRecord>): ProjectedRecord => ({
  ...sensorRecordRowStub,
  fieldEvent: 'Heartbeat',
  fieldStatus: null,
  fieldTiltSensor: null,
  fieldBatteryVoltage: null,
  fieldData: null,
  nid: nextNid++,
  ...changes,
});

/** The row and the kinds of transition after each record in turn. */
function apply(...records: ProjectedRecord[]): { sensor: SensorEntity; kinds: string[][] } {
  let sensor: SensorEntity | null = null;
  const kinds: string[][] = [];
  for (const next of records) {
    const step = applyRecord(sensor, next);
    sensor = step.sensor;
    kinds.push(step.transitions.map((transition) => transition.kind));
  }
  return { sensor: sensor!, kinds };
}

describe(applyRecord.name, () => {
  it('takes the last by device time, then nid, and the earliest and latest of the rest', () => {
    const { sensor } = apply(
      record({ nid: 7, fieldDate: at('2026-01-02T00:00:00Z'), created: at('2026-02-01T00:00:03Z'), fieldTimeout: 60 }),
      record({
        nid: 9,
        fieldDate: at('2026-01-03T00:00:00Z'),
        created: at('2026-02-01T00:00:01Z'),
        fieldEvent: 'Vibration',
        fieldTimeout: 120,
      }),
      record({
        nid: 8,
        fieldDate: at('2026-01-03T00:00:00Z'),
        created: at('2026-02-01T00:00:02Z'),
        fieldEvent: 'Baitlevel',
        fieldTimeout: 180,
      }),
      record({ nid: 6, fieldDate: at('2026-01-01T00:00:00Z'), created: at('2026-02-01T00:00:04Z'), fieldEvent: 'Set', fieldTimeout: -1 }),
    );

    expect(sensor).toMatchObject({
      reportCount: 4,
      firstReceived: at('2026-02-01T00:00:01Z'),
      lastReceived: at('2026-02-01T00:00:04Z'),
      firstDeviceTime: at('2026-01-01T00:00:00Z'),
      lastDeviceTime: at('2026-01-03T00:00:00Z'),
      lastNid: 9,
      lastEvent: 'Vibration',
      heartbeatPeriod: 120,
      heartbeatDue: at('2026-02-01T00:02:04Z'),
    });
  });

  it('keeps the latest report that said Sprung or Set', () => {
    const { sensor } = apply(
      record({ nid: 1, fieldDate: at('2026-01-02T00:00:00Z'), fieldEvent: 'Set' }),
      record({ nid: 2, fieldDate: at('2026-01-01T00:00:00Z'), fieldEvent: 'Sprung', fieldStatus: 'Sprung' }),
      record({ nid: 3, fieldDate: at('2026-01-03T00:00:00Z') }),
    );

    expect(sensor).toMatchObject({ sprung: false, trapStatusTime: at('2026-01-02T00:00:00Z'), trapStatusNid: 1 });
  });

  it('keeps the last known battery voltage and when it was reported', () => {
    const { sensor } = apply(
      record({ fieldDate: at('2026-01-01T00:00:00Z'), fieldBatteryVoltage: '3.600' }),
      record({ nid: 50, fieldDate: at('2026-01-02T00:00:00Z'), fieldBatteryVoltage: '3.500' }),
      record({ fieldDate: at('2026-01-03T00:00:00Z') }),
      // Late, carrying a voltage older than the known one.
      record({ fieldDate: at('2026-01-01T12:00:00Z'), fieldBatteryVoltage: '3.700' }),
    );

    expect(sensor).toMatchObject({ lastBatteryVoltage: '3.500', lastBatteryTime: at('2026-01-02T00:00:00Z'), lastBatteryNid: 50 });
  });

  it('raises battery with the new last known voltage and the one before it, past a report that carried none', () => {
    const first = applyRecord(null, record({ fieldDate: at('2026-01-01T00:00:00Z'), fieldBatteryVoltage: '3.200' }));
    const silentOnBattery = applyRecord(first.sensor, record({ fieldDate: at('2026-01-02T00:00:00Z') }));
    const next = applyRecord(silentOnBattery.sensor, record({ fieldDate: at('2026-01-03T00:00:00Z'), fieldBatteryVoltage: '3.500' }));

    expect(first.transitions).toEqual([expect.objectContaining({ kind: 'battery', value: 3.2, previous: null })]);
    expect(next.transitions).toEqual([expect.objectContaining({ kind: 'battery', value: 3.5, previous: 3.2 })]);
  });

  it('raises sprung once, reset with the time it was sprung, and nothing for a repeated Sprung', () => {
    const { kinds } = apply(
      record({ fieldDate: at('2026-01-01T00:00:00Z') }),
      record({ fieldDate: at('2026-01-01T01:00:00Z'), fieldEvent: 'Sprung', fieldStatus: 'Sprung' }),
      record({ fieldDate: at('2026-01-01T02:00:00Z'), fieldEvent: 'Sprung', fieldStatus: 'Sprung' }),
      record({ fieldDate: at('2026-01-01T03:00:00Z'), fieldEvent: 'Set', fieldStatus: 'Set' }),
    );

    expect(kinds).toEqual([[], ['sprung'], [], ['reset']]);
    const before = apply(record({ fieldDate: at('2026-01-01T01:00:00Z'), fieldEvent: 'Sprung' })).sensor;
    const reset = applyRecord(before, record({ fieldDate: at('2026-01-01T05:00:00Z'), fieldEvent: 'Set' })).transitions[0];
    expect(reset).toMatchObject({ kind: 'reset', sprungAt: at('2026-01-01T01:00:00Z') });
  });

  it('places a record whose device time is more than 300 s ahead of its receipt at its receipt: a later Set resets the trap', () => {
    const received = at('2026-11-29T08:00:00Z');
    const { kinds, sensor } = apply(
      record({ created: received, fieldDate: at('2027-11-29T08:00:00Z'), fieldEvent: 'Sprung', fieldStatus: 'Sprung' }),
      record({ created: at('2026-11-29T08:00:05Z'), fieldDate: at('2026-11-29T08:00:04Z'), fieldEvent: 'Set', fieldStatus: 'Set' }),
    );

    expect(kinds).toEqual([['sprung'], ['reset']]);
    expect(sensor).toMatchObject({ sprung: false, lastEvent: 'Set', lastDeviceTime: at('2026-11-29T08:00:04Z') });
    const sprung = applyRecord(null, record({ created: received, fieldDate: at('2027-11-29T08:00:00Z'), fieldEvent: 'Sprung' }));
    expect(sprung.transitions[0]).toMatchObject({ kind: 'sprung', at: received });
    expect(sprung.sensor).toMatchObject({
      lastDeviceTime: received,
      trapStatusTime: received,
      firstDeviceTime: at('2027-11-29T08:00:00Z'),
    });
  });

  it('places a record by its device time up to 300 s ahead of its receipt: an earlier device time after it is late', () => {
    const received = at('2026-11-29T08:00:00Z');
    const { kinds, sensor } = apply(
      record({ nid: 1, created: received, fieldDate: at('2026-11-29T08:05:00Z'), fieldEvent: 'Sprung', fieldStatus: 'Sprung' }),
      record({ nid: 2, created: at('2026-11-29T08:01:00Z'), fieldDate: at('2026-11-29T08:01:00Z'), fieldEvent: 'Set' }),
    );

    expect(kinds).toEqual([['sprung'], []]);
    expect(sensor).toMatchObject({ sprung: true, lastNid: 1, lastDeviceTime: at('2026-11-29T08:05:00Z') });
    const oneSecondMore = applyRecord(null, record({ created: received, fieldDate: at('2026-11-29T08:05:01Z') }));
    expect(oneSecondMore.sensor.lastDeviceTime).toEqual(received);
  });

  it('raises for a late record neither tilted nor bait, which follow the last record, nor a trap or voltage a later report said', () => {
    const silent = {
      ...apply(record({ fieldDate: at('2026-01-01T05:00:00Z'), fieldEvent: 'Set', fieldStatus: 'Set', fieldBatteryVoltage: '3.6' })).sensor,
      silentSince: at('2026-01-02T00:00:00Z'),
    };

    const late = applyRecord(
      silent,
      record({
        fieldDate: at('2026-01-01T04:00:00Z'),
        fieldEvent: 'Baitlevel',
        fieldStatus: 'Sprung',
        fieldData: 1,
        fieldTiltSensor: 'True',
        fieldBatteryVoltage: 2,
      }),
    );

    expect(late.transitions.map(({ kind }) => kind)).toEqual(['back']);
    expect(late.sensor).toMatchObject({ reportCount: 2, sprung: false, lastBatteryVoltage: '3.6', silentSince: null });
  });

  it('raises back for a record that arrives after silent whatever its device time, and ends the silence as the state does', () => {
    const heard = apply(record({ fieldDate: at('2026-01-01T12:00:00Z'), created: at('2026-01-01T12:00:00Z'), fieldTimeout: 5 })).sensor;
    const silent = { ...heard, silentSince: at('2026-01-01T12:00:10Z') };

    const late = record({ fieldDate: at('2026-01-01T11:00:00Z'), created: at('2026-01-01T12:00:11Z'), fieldTimeout: 5 });

    const hourOld = applyRecord(silent, late);

    expect(hourOld.transitions).toEqual([expect.objectContaining({ kind: 'back', nid: late.nid })]);
    expect(hourOld.sensor).toMatchObject({
      silentSince: null,
      lastReceived: at('2026-01-01T12:00:11Z'),
      heartbeatDue: at('2026-01-01T12:00:16Z'),
      lastNid: silent.lastNid,
    });
  });

  it('springs the trap for a Sprung after its latest Sprung or Set though a heartbeat dated later came first, and says so', () => {
    const { kinds, sensor } = apply(
      record({ nid: 1, fieldDate: at('2026-01-01T11:50:00Z'), fieldEvent: 'Heartbeat' }),
      record({ nid: 2, fieldDate: at('2026-01-01T11:40:00Z'), fieldEvent: 'Sprung' }),
    );

    expect(kinds).toEqual([[], ['sprung']]);
    expect(sensor).toMatchObject({ sprung: true, trapStatusNid: 2, lastNid: 1, lastEvent: 'Heartbeat' });
  });

  it('resets the trap for a Set after the Sprung though a heartbeat dated later came first, with the time it was sprung', () => {
    const { sensor, transitions } = applyRecord(
      apply(
        record({ nid: 1, fieldDate: at('2026-01-01T11:00:00Z'), fieldEvent: 'Sprung' }),
        record({ nid: 2, fieldDate: at('2026-01-01T11:50:00Z'), fieldEvent: 'Heartbeat' }),
      ).sensor,
      record({ nid: 3, fieldDate: at('2026-01-01T11:30:00Z'), fieldEvent: 'Set' }),
    );

    expect(transitions).toEqual([expect.objectContaining({ kind: 'reset', sprungAt: at('2026-01-01T11:00:00Z'), nid: 3 })]);
    expect(sensor).toMatchObject({ sprung: false, lastNid: 2 });
  });

  it("raises battery for a late record carrying the sensor's first voltage, which becomes the last known one", () => {
    const { kinds, sensor } = apply(
      record({ fieldDate: at('2026-01-01T05:00:00Z'), fieldEvent: 'Heartbeat' }),
      record({ fieldDate: at('2026-01-01T04:00:00Z'), fieldBatteryVoltage: '3.1' }),
    );

    expect(kinds).toEqual([[], ['battery']]);
    expect(sensor.lastBatteryVoltage).toBe('3.1');
  });

  it('raises tilted when the tilt sensor turns True or Fail, back after silent, battery and bait with their values', () => {
    const silent = {
      ...apply(record({ fieldDate: at('2026-01-01T00:00:00Z'), fieldTiltSensor: 'False' })).sensor,
      silentSince: at('2026-01-02T00:00:00Z'),
    };

    const step = applyRecord(
      silent,
      record({
        fieldDate: at('2026-01-03T00:00:00Z'),
        fieldTiltSensor: 'Fail',
        fieldEvent: 'Baitlevel',
        fieldData: '12.5',
        fieldBatteryVoltage: '3.1',
      }),
    );

    expect(step.transitions.map(({ kind, value }) => [kind, value])).toEqual([
      ['back', undefined],
      ['tilted', undefined],
      ['battery', 3.1],
      ['bait', 12.5],
    ]);
    expect(step.sensor.silentSince).toBeNull();
  });
});

describe(trapStatusOf.name, () => {
  it.each([
    ['Sprung', 'Set', 'Set'],
    ['Heartbeat', 'Sprung', 'Sprung'],
    ['Sprung', null, 'Sprung'],
    ['Sprung', 'Baitlevel', 'Sprung'],
    ['Heartbeat', 'Baitlevel', null],
    ['Vibration', null, null],
  ])('reads event %s with status %s as %s', (fieldEvent, fieldStatus, expected) => {
    expect(trapStatusOf({ fieldEvent, fieldStatus })).toBe(expected);
  });
});
