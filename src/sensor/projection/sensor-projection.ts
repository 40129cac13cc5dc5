import { type DataSource, type EntityManager, In } from 'typeorm';
import { SensorEntity } from '../sensor.entity.js';
import { applyRecord, type ProjectedRecord } from './sensor-step.js';
import type { SensorTransition } from './sensor-transition.js';
import type { ColumnMetadata } from '../../database/column-metadata.js';
import { MultiRowInsert } from '../../database/multi-row-insert.js';
import { persistentValues } from '../../database/persistent-values.js';

interface Dialect {
  /** Inserts a row that is not there yet; leaves one that is (locked, on MySQL). */
  keep: string;
  /** Overwrites every column of a row that is there. */
  overwrite(columns: string[]): string;
}

const MYSQL: Dialect = {
  keep: 'ON DUPLICATE KEY UPDATE uid = uid',
  overwrite: (columns) => `ON DUPLICATE KEY UPDATE ${columns.map((column) => `${column} = VALUES(${column})`).join(', ')}`,
};

const SQLITE: Dialect = {
  keep: 'ON CONFLICT (uid, dev_id) DO NOTHING',
  overwrite: (columns) => `ON CONFLICT (uid, dev_id) DO UPDATE SET ${columns.map((column) => `${column} = excluded.${column}`).join(', ')}`,
};

/**
 * Keeps the `sensor` table in the transaction that stores a batch of records, by the one rule of
 * sensor-step.ts, and answers what changed. Three steps per batch, one row per sensor in each (each
 * write in statements of 64 rows and powers of two, multi-row-insert.ts): the rows not there yet are inserted with a count of 0 (a row that is there is only locked: an
 * INSERT takes no gap locks, which a SELECT … FOR UPDATE of a missing row would, deadlocking two
 * batches that add sensors side by side); the rows are read, now locked until the COMMIT; each batch
 * record is applied in arrival order; the rows are written back whole. The rows are taken in one
 * fixed order (uid, then dev_id as the exact collation orders it), so that concurrent batches lock
 * the sensors they share in the same order.
 */
export class SensorProjection {
  private readonly columns: ColumnMetadata[];
  private readonly values: (sensor: SensorEntity) => unknown[];
  /** Inserts the rows not there yet; leaves (and locks) those that are. */
  private readonly keep: MultiRowInsert;
  /** Writes the rows back whole. */
  private readonly overwrite: MultiRowInsert;

  constructor(dataSource: DataSource) {
    const dialect = dataSource.options.type === 'mysql' ? MYSQL : SQLITE;
    this.columns = dataSource.getMetadata(SensorEntity).columns;
    this.values = persistentValues(dataSource.driver, this.columns);
    const head = `INSERT INTO sensor (${this.columns.map((column) => column.databaseName).join(', ')}) VALUES `;
    const names = this.columns.filter((column) => !column.isPrimary).map((column) => column.databaseName);
    this.keep = new MultiRowInsert(head, this.columns.length, dialect.keep);
    this.overwrite = new MultiRowInsert(head, this.columns.length, dialect.overwrite(names));
  }

  async apply(manager: EntityManager, records: ProjectedRecord[]): Promise<SensorTransition[]> {
    if (records.length === 0) return [];
    const bySensor = groupBySensor(records);
    const fresh = [...bySensor.values()].map((own) => ({ ...fold(null, own).sensor, reportCount: 0 }));
    await this.write(manager, fresh, this.keep);
    const stored = await this.read(manager, fresh);
    const transitions: SensorTransition[] = [];
    const after: SensorEntity[] = [];
    for (const [key, own] of bySensor) {
      const before = stored.get(key)!;
      const folded = fold(before.reportCount === 0 ? null : before, own);
      after.push(folded.sensor);
      transitions.push(...folded.transitions);
    }
    await this.write(manager, after, this.overwrite);
    return transitions;
  }

  private write(manager: EntityManager, sensors: SensorEntity[], insert: MultiRowInsert): Promise<void> {
    return insert.run(manager, sensors.map(this.values));
  }

  private async read(manager: EntityManager, sensors: SensorEntity[]): Promise<Map<string, SensorEntity>> {
    const found = new Map<string, SensorEntity>();
    const uids = [...new Set(sensors.map((sensor) => sensor.uid))];
    for (const uid of uids) {
      const devIds = sensors.filter((sensor) => sensor.uid === uid).map((sensor) => sensor.devId);
      // A locking read: on MySQL a plain SELECT would read the transaction's snapshot, older than a
      // row another batch committed while this one waited for its lock.
      const select = manager
        .getRepository(SensorEntity)
        .createQueryBuilder('sensor')
        .where({ uid, devId: In(devIds) });
      if (manager.connection.options.type === 'mysql') select.setLock('pessimistic_write');
      const rows = await select.getMany();
      for (const row of rows) found.set(keyOf(row.uid, row.devId), row);
    }
    return found;
  }
}

function fold(before: SensorEntity | null, records: ProjectedRecord[]): { sensor: SensorEntity; transitions: SensorTransition[] } {
  let sensor = before;
  const transitions: SensorTransition[] = [];
  for (const record of records) {
    const step = applyRecord(sensor, record);
    sensor = step.sensor;
    transitions.push(...step.transitions);
  }
  return { sensor: sensor!, transitions };
}

const keyOf = (uid: number, devId: string) => `${uid}\u0000${devId}`;

/** The records per sensor, each sensor's in arrival order, the sensors in key order (uid, then dev_id by code point). */
function groupBySensor(records: ProjectedRecord[]): Map<string, ProjectedRecord[]> {
  const groups = new Map<string, ProjectedRecord[]>();
  for (const record of records) {
    const key = keyOf(record.uid, record.devId);
    const group = groups.get(key);
    if (group) group.push(record);
    else groups.set(key, [record]);
  }
  const ordered = [...groups.entries()].sort(
    ([, [a]], [, [b]]) => a!.uid - b!.uid || Buffer.compare(Buffer.from(a!.devId), Buffer.from(b!.devId)),
  );
  return new Map(ordered);
}
