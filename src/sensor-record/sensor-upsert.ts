import type { DataSource, EntityManager } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata.js';
import { SensorRecordEntity } from './sensor-record.entity.js';
import type { SensorChange } from './sensor-changes.js';

const COLUMNS = [
  'uid',
  'dev_id',
  'report_count',
  'first_received',
  'last_received',
  'first_device_time',
  'last_device_time',
  'last_nid',
  'last_event',
  'last_status',
  'last_battery_voltage',
  'last_counter',
  'last_tilt_sensor',
  'heartbeat_period',
  'heartbeat_due',
  'sprung',
  'trap_status_time',
  'trap_status_nid',
];

interface Dialect {
  /** The value the row being inserted carries for `column`. */
  incoming(column: string): string;
  greatest(a: string, b: string): string;
  least(a: string, b: string): string;
  addSeconds(instant: string, seconds: string): string;
  upsertClause: string;
}

const MYSQL: Dialect = {
  incoming: (column) => `VALUES(${column})`,
  greatest: (a, b) => `GREATEST(${a}, ${b})`,
  least: (a, b) => `LEAST(${a}, ${b})`,
  addSeconds: (instant, seconds) => `DATE_ADD(${instant}, INTERVAL ${seconds} SECOND)`,
  upsertClause: 'ON DUPLICATE KEY UPDATE',
};

// Text instants in TypeORM's format ('YYYY-MM-DD HH:MM:SS.SSS'), which compare in time order.
const SQLITE: Dialect = {
  incoming: (column) => `excluded.${column}`,
  greatest: (a, b) => `MAX(${a}, ${b})`,
  least: (a, b) => `MIN(${a}, ${b})`,
  addSeconds: (instant, seconds) => `strftime('%Y-%m-%d %H:%M:%f', ${instant}, '+' || ${seconds} || ' seconds')`,
  upsertClause: 'ON CONFLICT (uid, dev_id) DO UPDATE SET',
};

/**
 * Keeps the `sensor` table in the transaction that stores a batch of records: one multi-row upsert,
 * one row per sensor, merged with the stored row by the rules of docs/interface.md#sensors. The merge
 * only takes minima, maxima and the later of two records, so batches may commit in any order.
 *
 * MySQL may evaluate the assignments of ON DUPLICATE KEY UPDATE left to right (a later one seeing
 * the columns an earlier one changed) or all from the old row (SIMULTANEOUS_ASSIGNMENT); SQLite does
 * the latter. The assignments are ordered so that both readings give the same row: each reads only
 * columns assigned after it, except where noted.
 */
export class SensorUpsert {
  private readonly dialect: Dialect;
  private readonly prefix: string;
  private readonly suffix: string;
  private readonly instantColumn: ColumnMetadata;
  private readonly decimalColumn: ColumnMetadata;
  private readonly flagColumn: ColumnMetadata;

  constructor(private readonly dataSource: DataSource) {
    this.dialect = dataSource.options.type === 'mysql' ? MYSQL : SQLITE;
    this.prefix = `INSERT INTO sensor (${COLUMNS.join(', ')}) VALUES `;
    this.suffix = ` ${this.dialect.upsertClause} ${assignments(this.dialect).join(', ')}`;
    // Values go through the driver's own conversion of the record's columns of the same types, so
    // that instants are stored (and on SQLite compare) exactly as the records' are.
    const record = dataSource.getMetadata(SensorRecordEntity);
    this.instantColumn = record.findColumnWithPropertyName('created')!;
    this.decimalColumn = record.findColumnWithPropertyName('fieldBatteryVoltage')!;
    this.flagColumn = record.findColumnWithPropertyName('status')!;
  }

  async apply(manager: EntityManager, changes: SensorChange[]): Promise<void> {
    if (changes.length === 0) return;
    const row = `(${COLUMNS.map(() => '?').join(', ')})`;
    const sql = this.prefix + changes.map(() => row).join(', ') + this.suffix;
    await manager.query(
      sql,
      changes.flatMap((change) => this.values(change)),
    );
  }

  private values(change: SensorChange): unknown[] {
    const { driver } = this.dataSource;
    const instant = (value: Date | null) => (value === null ? null : driver.preparePersistentValue(value, this.instantColumn));
    const { last, trap } = change;
    const due = last.heartbeatPeriod > 0 ? new Date(change.lastReceived.getTime() + last.heartbeatPeriod * 1000) : null;
    return [
      change.uid,
      change.devId,
      change.reportCount,
      instant(change.firstReceived),
      instant(change.lastReceived),
      instant(change.firstDeviceTime),
      instant(last.deviceTime),
      last.nid,
      last.event,
      last.status,
      driver.preparePersistentValue(last.batteryVoltage, this.decimalColumn),
      last.counter,
      last.tiltSensor,
      last.heartbeatPeriod,
      instant(due),
      driver.preparePersistentValue(trap?.status === 'Sprung', this.flagColumn),
      instant(trap?.deviceTime ?? null),
      trap?.nid ?? null,
    ];
  }
}

function assignments({ incoming, greatest, least, addSeconds }: Dialect): string[] {
  const ifThen = (condition: string, then: string, otherwise: string) => `CASE WHEN ${condition} THEN ${then} ELSE ${otherwise} END`;
  // The incoming record is later than the stored last: by device time, then nid.
  const later = `(${incoming('last_device_time')} > last_device_time OR (${incoming('last_device_time')} = last_device_time AND ${incoming('last_nid')} > last_nid))`;
  const fromLater = (column: string) => `${column} = ${ifThen(later, incoming(column), column)}`;
  const trapLater = `(${incoming('trap_status_nid')} IS NOT NULL AND (trap_status_nid IS NULL OR ${incoming('trap_status_time')} > trap_status_time OR (${incoming('trap_status_time')} = trap_status_time AND ${incoming('trap_status_nid')} > trap_status_nid)))`;
  const period = ifThen(later, incoming('heartbeat_period'), 'heartbeat_period');
  const received = greatest('last_received', incoming('last_received'));
  return [
    `heartbeat_due = CASE WHEN ${period} > 0 THEN ${addSeconds(received, period)} ELSE NULL END`,
    `report_count = report_count + ${incoming('report_count')}`,
    `first_received = ${least('first_received', incoming('first_received'))}`,
    `first_device_time = ${least('first_device_time', incoming('first_device_time'))}`,
    ...['last_event', 'last_status', 'last_battery_voltage', 'last_counter', 'last_tilt_sensor', 'heartbeat_period'].map(fromLater),
    `last_received = ${received}`,
    `sprung = ${ifThen(trapLater, incoming('sprung'), 'sprung')}`,
    // last_nid and then last_device_time; read left to right, last_device_time sees the new last_nid,
    // which equals the incoming one exactly when it won: hence ">=".
    fromLater('last_nid'),
    `last_device_time = ${ifThen(
      `(${incoming('last_device_time')} > last_device_time OR (${incoming('last_device_time')} = last_device_time AND ${incoming('last_nid')} >= last_nid))`,
      incoming('last_device_time'),
      'last_device_time',
    )}`,
    `trap_status_nid = ${ifThen(trapLater, incoming('trap_status_nid'), 'trap_status_nid')}`,
    // Likewise: with the new trap_status_nid, the first trap status of a sensor meets a NULL time.
    `trap_status_time = ${ifThen(
      `(${incoming('trap_status_nid')} IS NOT NULL AND (trap_status_nid IS NULL OR trap_status_time IS NULL OR ${incoming('trap_status_time')} > trap_status_time OR (${incoming('trap_status_time')} = trap_status_time AND ${incoming('trap_status_nid')} >= trap_status_nid)))`,
      incoming('trap_status_time'),
      'trap_status_time',
    )}`,
  ];
}
