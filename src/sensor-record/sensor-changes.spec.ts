import { sensorRecordRowStub } from '../../test/fixtures/sensor-record-row.stub.js';
import type { NewSensorRecordRow } from './new-sensor-record.row.js';
import { sensorChanges, trapStatusOf } from './sensor-changes.js';

const at = (iso: string) => new Date(iso);
const row = (changes: Partial<NewSensorRecordRow>): NewSensorRecordRow => ({ ...sensorRecordRowStub, ...changes });

describe(sensorChanges.name, () => {
  it('makes one change per owner and device, in one order whatever the batch order, case variants side by side', () => {
    const rows = [
      row({ uid: 2, devId: 'b' }),
      row({ uid: 1, devId: 'b' }),
      row({ uid: 1, devId: 'B' }),
      row({ uid: 1, devId: 'a' }),
      row({ uid: 1, devId: 'b' }),
    ];

    const sut = sensorChanges(rows, [10, 11, 12, 13, 14]);

    expect(sut.map((change) => [change.uid, change.devId, change.reportCount])).toEqual([
      [1, 'a', 1],
      [1, 'B', 1],
      [1, 'b', 2],
      [2, 'b', 1],
    ]);
  });

  it('takes the last by device time, then nid, and the earliest and latest of the rest', () => {
    const rows = [
      row({ fieldDate: at('2026-01-02T00:00:00Z'), created: at('2026-02-01T00:00:03Z'), fieldEvent: 'Heartbeat', fieldTimeout: 60 }),
      row({ fieldDate: at('2026-01-03T00:00:00Z'), created: at('2026-02-01T00:00:01Z'), fieldEvent: 'Vibration', fieldTimeout: 120 }),
      row({ fieldDate: at('2026-01-03T00:00:00Z'), created: at('2026-02-01T00:00:02Z'), fieldEvent: 'Baitlevel', fieldTimeout: 180 }),
      row({ fieldDate: at('2026-01-01T00:00:00Z'), created: at('2026-02-01T00:00:04Z'), fieldEvent: 'Set', fieldTimeout: -1 }),
    ];

    const [sut] = sensorChanges(rows, [7, 9, 8, 6]);

    expect(sut).toMatchObject({
      reportCount: 4,
      firstReceived: at('2026-02-01T00:00:01Z'),
      lastReceived: at('2026-02-01T00:00:04Z'),
      firstDeviceTime: at('2026-01-01T00:00:00Z'),
      last: { nid: 9, event: 'Vibration', heartbeatPeriod: 120, deviceTime: at('2026-01-03T00:00:00Z') },
    });
  });

  it('keeps the latest report that said Sprung or Set, and none when none did', () => {
    const rows = [
      row({ fieldDate: at('2026-01-02T00:00:00Z'), fieldEvent: 'Set', fieldStatus: null }),
      row({ fieldDate: at('2026-01-01T00:00:00Z'), fieldEvent: 'Sprung', fieldStatus: 'Sprung' }),
      row({ fieldDate: at('2026-01-03T00:00:00Z'), fieldEvent: 'Heartbeat', fieldStatus: null }),
    ];

    expect(sensorChanges(rows, [1, 2, 3])[0]!.trap).toEqual({ deviceTime: at('2026-01-02T00:00:00Z'), nid: 1, status: 'Set' });
    expect(sensorChanges([rows[2]!], [3])[0]!.trap).toBeNull();
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
