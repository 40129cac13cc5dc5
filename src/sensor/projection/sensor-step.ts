import type { NewSensorRecordRow } from '../../sensor-record/new-sensor-record.row.js';
import type { SensorEntity } from '../sensor.entity.js';
import { isLater, orderTime, type RecordOrder } from './record-order.js';
import type { SensorTransition } from './sensor-transition.js';

/** What a trap says about itself: Sprung or Set, or nothing (docs/interface.md#sensor-state). */
export type TrapStatus = 'Sprung' | 'Set';

/** A stored record as the sensor's row sees it: its columns and its nid. */
export type ProjectedRecord = Pick<
  NewSensorRecordRow,
  | 'uid'
  | 'devId'
  | 'created'
  | 'fieldDate'
  | 'fieldEvent'
  | 'fieldStatus'
  | 'fieldBatteryVoltage'
  | 'fieldCounter'
  | 'fieldTiltSensor'
  | 'fieldTimeout'
  | 'fieldData'
> & { nid: number };

/** What the sensor's row takes of a stored record, without copying the rest of its columns. */
export function projectedRecord(row: Omit<ProjectedRecord, 'nid'>, nid: number): ProjectedRecord {
  return {
    uid: row.uid,
    devId: row.devId,
    created: row.created,
    fieldDate: row.fieldDate,
    fieldEvent: row.fieldEvent,
    fieldStatus: row.fieldStatus,
    fieldBatteryVoltage: row.fieldBatteryVoltage,
    fieldCounter: row.fieldCounter,
    fieldTiltSensor: row.fieldTiltSensor,
    fieldTimeout: row.fieldTimeout,
    fieldData: row.fieldData,
    nid,
  };
}

/** field_status when it says Sprung or Set, otherwise field_event when that does. */
export function trapStatusOf(record: Pick<NewSensorRecordRow, 'fieldStatus' | 'fieldEvent'>): TrapStatus | null {
  for (const said of [record.fieldStatus, record.fieldEvent]) if (said === 'Sprung' || said === 'Set') return said;
  return null;
}

/** A tilt sensor that reports the trap knocked over, or itself broken. */
function isTilted(tiltSensor: string | null | undefined): boolean {
  return tiltSensor === 'True' || tiltSensor === 'Fail';
}

const orderOf = (record: ProjectedRecord): RecordOrder => ({ time: orderTime(record), nid: record.nid });

/**
 * The one rule of a sensor's row (docs/interface.md#sensors): the row after one more record, and what
 * that record changed. "Last" is the latest order time (the device time, or the receipt for a device
 * time too far ahead: record-order.ts), then the highest nid; the row's times of its last, battery and
 * trap records are those order times. A late record (not after the last) still counts and still shows
 * the device alive, but changes none of the last record's values. Each value is kept by its own latest
 * record, and what a record changes it raises (docs/interface.md#sensor-transitions): a `Sprung` after
 * the latest `Sprung` or `Set` springs the trap and says so, though a heartbeat dated later came first.
 */
export function applyRecord(
  before: SensorEntity | null,
  record: ProjectedRecord,
): { sensor: SensorEntity; transitions: SensorTransition[] } {
  const order = orderOf(record);
  const later = before === null || isLater(order, { time: before.lastDeviceTime, nid: before.lastNid });
  const sensor: SensorEntity = before
    ? copyOf(before)
    : {
        uid: record.uid,
        devId: record.devId,
        reportCount: 0,
        firstReceived: record.created,
        lastReceived: record.created,
        firstDeviceTime: record.fieldDate,
        lastDeviceTime: order.time,
        lastNid: record.nid,
        lastEvent: record.fieldEvent,
        lastStatus: null,
        lastBatteryVoltage: null,
        lastBatteryTime: null,
        lastBatteryNid: null,
        lastCounter: null,
        lastTiltSensor: null,
        heartbeatPeriod: record.fieldTimeout,
        heartbeatDue: null,
        sprung: false,
        trapStatusTime: null,
        trapStatusNid: null,
        silentSince: null,
      };
  sensor.reportCount++;
  if (record.created < sensor.firstReceived) sensor.firstReceived = record.created;
  if (record.created > sensor.lastReceived) sensor.lastReceived = record.created;
  if (record.fieldDate < sensor.firstDeviceTime) sensor.firstDeviceTime = record.fieldDate;
  if (later) {
    sensor.lastDeviceTime = order.time;
    sensor.lastNid = record.nid;
    sensor.lastEvent = record.fieldEvent;
    sensor.lastStatus = record.fieldStatus;
    sensor.lastCounter = record.fieldCounter;
    sensor.lastTiltSensor = record.fieldTiltSensor;
    sensor.heartbeatPeriod = record.fieldTimeout;
  }
  // Silence is measured by arrival, so any record ends it, a late one too, as the state shows.
  sensor.silentSince = null;
  sensor.heartbeatDue = sensor.heartbeatPeriod > 0 ? new Date(sensor.lastReceived.getTime() + sensor.heartbeatPeriod * 1000) : null;
  // The last known voltage: of the latest record that carried one.
  const batteryKnown = sensor.lastBatteryTime !== null && sensor.lastBatteryNid !== null;
  if (
    record.fieldBatteryVoltage !== null &&
    (!batteryKnown || isLater(order, { time: sensor.lastBatteryTime!, nid: sensor.lastBatteryNid! }))
  ) {
    sensor.lastBatteryVoltage = record.fieldBatteryVoltage;
    sensor.lastBatteryTime = order.time;
    sensor.lastBatteryNid = record.nid;
  }
  const status = trapStatusOf(record);
  const trapKnown = sensor.trapStatusTime !== null && sensor.trapStatusNid !== null;
  if (status && (!trapKnown || isLater(order, { time: sensor.trapStatusTime!, nid: sensor.trapStatusNid! }))) {
    sensor.sprung = status === 'Sprung';
    sensor.trapStatusTime = order.time;
    sensor.trapStatusNid = record.nid;
  }
  return { sensor, transitions: transitions(before, sensor, record, order.time, later) };
}

/**
 * A copy of the row: the step never changes the row it was given (a transition keeps the row after
 * its own record). Member by member, so that every row a batch writes has the one shape whatever
 * the row read from the database had.
 */
function copyOf(sensor: SensorEntity): SensorEntity {
  return {
    uid: sensor.uid,
    devId: sensor.devId,
    reportCount: sensor.reportCount,
    firstReceived: sensor.firstReceived,
    lastReceived: sensor.lastReceived,
    firstDeviceTime: sensor.firstDeviceTime,
    lastDeviceTime: sensor.lastDeviceTime,
    lastNid: sensor.lastNid,
    lastEvent: sensor.lastEvent,
    lastStatus: sensor.lastStatus,
    lastBatteryVoltage: sensor.lastBatteryVoltage,
    lastBatteryTime: sensor.lastBatteryTime,
    lastBatteryNid: sensor.lastBatteryNid,
    lastCounter: sensor.lastCounter,
    lastTiltSensor: sensor.lastTiltSensor,
    heartbeatPeriod: sensor.heartbeatPeriod,
    heartbeatDue: sensor.heartbeatDue,
    sprung: sensor.sprung,
    trapStatusTime: sensor.trapStatusTime,
    trapStatusNid: sensor.trapStatusNid,
    silentSince: sensor.silentSince,
  };
}

/**
 * What the record changed. The trap and the battery voltage are each kept by their own latest record,
 * so a record late to the last one still changes them when it is the latest to say so, and raises it;
 * `back` follows arrival, as the silence it ends does; `tilted` and `bait` follow the last record,
 * which a late one is not.
 */
function transitions(
  before: SensorEntity | null,
  after: SensorEntity,
  record: ProjectedRecord,
  at: Date,
  later: boolean,
): SensorTransition[] {
  const happened: SensorTransition[] = [];
  const raise = (kind: SensorTransition['kind'], more: Partial<SensorTransition> = {}) =>
    happened.push({ kind, sensor: after, nid: record.nid, at, ...more });
  const wasSprung = Boolean(before?.sprung);
  if (!wasSprung && after.sprung) raise('sprung');
  if (wasSprung && !after.sprung) raise('reset', { sprungAt: before!.trapStatusTime });
  if (before?.silentSince) raise('back');
  if (later && isTilted(after.lastTiltSensor) && !isTilted(before?.lastTiltSensor)) raise('tilted');
  if (record.fieldBatteryVoltage !== null && after.lastBatteryNid === record.nid) {
    const previous = before?.lastBatteryVoltage ?? null;
    raise('battery', { value: Number(record.fieldBatteryVoltage), previous: previous === null ? null : Number(previous) });
  }
  if (later && record.fieldEvent === 'Baitlevel' && record.fieldData !== null) raise('bait', { value: Number(record.fieldData) });
  return happened;
}
