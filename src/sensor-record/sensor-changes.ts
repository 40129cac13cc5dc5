import type { NewSensorRecordRow } from './new-sensor-record.row.js';

/** What a trap says about itself: Sprung or Set, or nothing (docs/interface.md#sensor-state). */
export type TrapStatus = 'Sprung' | 'Set';

/** A record's place in "last" order: the device time, then the nid (docs/interface.md#sensors). */
export interface RecordOrder {
  deviceTime: Date;
  nid: number;
}

/** What the records of one batch change in the row of one sensor (one owner's device). */
export interface SensorChange {
  uid: number;
  devId: string;
  reportCount: number;
  firstReceived: Date;
  lastReceived: Date;
  firstDeviceTime: Date;
  /** The batch's last record of this sensor; it becomes the sensor's last unless a later one is stored. */
  last: RecordOrder & {
    event: string;
    status: string | null;
    batteryVoltage: string | number | null;
    counter: number | null;
    tiltSensor: string | null;
    heartbeatPeriod: number;
  };
  /** The batch's last record saying Sprung or Set, if any. */
  trap: (RecordOrder & { status: TrapStatus }) | null;
}

/** field_status when it says Sprung or Set, otherwise field_event when that does. */
export function trapStatusOf(row: Pick<NewSensorRecordRow, 'fieldStatus' | 'fieldEvent'>): TrapStatus | null {
  for (const said of [row.fieldStatus, row.fieldEvent]) if (said === 'Sprung' || said === 'Set') return said;
  return null;
}

export function isLater(a: RecordOrder, b: RecordOrder): boolean {
  const difference = a.deviceTime.getTime() - b.deviceTime.getTime();
  return difference > 0 || (difference === 0 && a.nid > b.nid);
}

/**
 * One change per (uid, dev_id) of the batch's rows (`nids[i]` is the nid of `rows[i]`), in one fixed
 * order, so that concurrent batches lock the sensor rows they share in the same order and cannot
 * deadlock on them. Case variants sort together: MySQL compares dev_id without regard to case.
 */
export function sensorChanges(rows: NewSensorRecordRow[], nids: number[]): SensorChange[] {
  const changes = new Map<string, SensorChange>();
  rows.forEach((row, index) => {
    const order: RecordOrder = { deviceTime: row.fieldDate, nid: nids[index]! };
    const last = {
      ...order,
      event: row.fieldEvent,
      status: row.fieldStatus,
      batteryVoltage: row.fieldBatteryVoltage,
      counter: row.fieldCounter,
      tiltSensor: row.fieldTiltSensor,
      heartbeatPeriod: row.fieldTimeout,
    };
    const status = trapStatusOf(row);
    const trap = status ? { ...order, status } : null;
    const key = `${row.uid}\u0000${row.devId}`;
    const change = changes.get(key);
    if (!change) {
      changes.set(key, {
        uid: row.uid,
        devId: row.devId,
        reportCount: 1,
        firstReceived: row.created,
        lastReceived: row.created,
        firstDeviceTime: row.fieldDate,
        last,
        trap,
      });
      return;
    }
    change.reportCount++;
    if (row.created < change.firstReceived) change.firstReceived = row.created;
    if (row.created > change.lastReceived) change.lastReceived = row.created;
    if (row.fieldDate < change.firstDeviceTime) change.firstDeviceTime = row.fieldDate;
    if (isLater(last, change.last)) change.last = last;
    if (trap && (!change.trap || isLater(trap, change.trap))) change.trap = trap;
  });
  return [...changes.values()].sort(
    (a, b) => a.uid - b.uid || compareText(a.devId.toLowerCase(), b.devId.toLowerCase()) || compareText(a.devId, b.devId),
  );
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
