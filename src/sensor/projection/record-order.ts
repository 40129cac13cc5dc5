/**
 * How far a device time may run ahead of the service's clock at receipt and still place its record
 * (docs/interface.md#sensors): five minutes, a hundred times the few seconds by which a network
 * server's or a gateway's NTP-kept clock differs from the service's, and many weeks of a free-running
 * device clock's drift (20 ppm, about a minute a month); short beside the 24 hours a sprung trap has.
 */
const DEVICE_CLOCK_AHEAD_SECONDS = 300;

/** A record's place in "last" order: its order time, then the nid (docs/interface.md#sensors). */
export interface RecordOrder {
  time: Date;
  nid: number;
}

/**
 * The time that places a record in "last" order: its device time, or when that is more than
 * DEVICE_CLOCK_AHEAD_SECONDS ahead of the record's receipt (`created`, whole seconds as device times
 * are), the receipt. A device whose clock runs a year ahead then cannot hold its record last, nor a
 * trap sprung, for that year; the record keeps its device time as sent.
 */
export function orderTime(record: { fieldDate: Date; created: Date }): Date {
  const ahead = record.fieldDate.getTime() - record.created.getTime();
  return ahead > DEVICE_CLOCK_AHEAD_SECONDS * 1000 ? record.created : record.fieldDate;
}

/** The same order time in SQL, for `sensor_report` rows under `alias`. */
export function orderTimeSql(alias: string, mysql: boolean): string {
  const ahead = mysql
    ? `TIMESTAMPDIFF(SECOND, ${alias}.created, ${alias}.field_date)`
    : `(CAST(strftime('%s', ${alias}.field_date) AS INTEGER) - CAST(strftime('%s', ${alias}.created) AS INTEGER))`;
  return `CASE WHEN ${ahead} > ${DEVICE_CLOCK_AHEAD_SECONDS} THEN ${alias}.created ELSE ${alias}.field_date END`;
}

/** Whether `a` comes after `b` in "last" order. */
export function isLater(a: RecordOrder, b: RecordOrder): boolean {
  const difference = a.time.getTime() - b.time.getTime();
  return difference > 0 || (difference === 0 && a.nid > b.nid);
}

/** The same order in SQL, latest first, for `sensor_report` rows under `alias`. */
export function latestRecordFirst(alias: string, mysql: boolean): string {
  return `${orderTimeSql(alias, mysql)} DESC, ${alias}.nid DESC`;
}
