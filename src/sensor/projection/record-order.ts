/** A record's place in "last" order: the device time, then the nid (docs/interface.md#sensors). */
export interface RecordOrder {
  deviceTime: Date;
  nid: number;
}

/** Whether `a` comes after `b` in "last" order. */
export function isLater(a: RecordOrder, b: RecordOrder): boolean {
  const difference = a.deviceTime.getTime() - b.deviceTime.getTime();
  return difference > 0 || (difference === 0 && a.nid > b.nid);
}

/** The same order in SQL, latest first, for `sensor_report` rows under `alias`. */
export function latestRecordFirst(alias: string): string {
  return `${alias}.field_date DESC, ${alias}.nid DESC`;
}
