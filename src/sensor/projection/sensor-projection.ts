import type { DataSource, EntityManager } from 'typeorm';
import { SensorEntity } from '../sensor.entity.js';
import { sensorKey } from '../sensor-key.js';
import { applyRecord, type ProjectedRecord } from './sensor-step.js';
import type { SensorTransition } from './sensor-transition.js';
import type { ColumnMetadata } from '../../database/column-metadata.js';
import { MultiRowInsert } from '../../database/multi-row-insert.js';
import { persistentValues } from '../../database/persistent-values.js';
import { entitySelect } from '../../database/plain-sql.js';
import { queryInTurn, queryTogether } from '../../database/send-together.js';

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
 * sensor-step.ts, and answers what changed. Three steps per batch, one row per sensor in each: the
 * rows not there yet are inserted as placeholders with a count of 0 (a row that is there is only
 * locked: an INSERT takes no gap locks, which a SELECT … FOR UPDATE of a missing row would, deadlocking
 * two batches that add sensors side by side) and the rows are read, now locked until the COMMIT (both
 * in one round trip where the writer asks, `together`); each batch record is applied in arrival order; the rows are written back whole
 * (in prepared statements of 64 rows and powers of two, multi-row-insert.ts). The rows are taken in
 * one fixed order (uid, then dev_id as the exact collation orders it), so that concurrent batches lock
 * the sensors they share in the same order.
 */
export class SensorProjection {
  private readonly columns: ColumnMetadata[];
  private readonly values: (sensor: SensorEntity) => unknown[];
  private readonly keyValues: (key: SensorKey) => unknown[];
  /** Inserts the rows not there yet as placeholders, with their key only; leaves (and locks) those that are. */
  private readonly keep: MultiRowInsert;
  /** Writes the rows back whole. */
  private readonly overwrite: MultiRowInsert;

  constructor(dataSource: DataSource) {
    const dialect = dataSource.options.type === 'mysql' ? MYSQL : SQLITE;
    this.columns = dataSource.getMetadata(SensorEntity).columns;
    this.values = persistentValues(dataSource.driver, this.columns);
    const names = (columns: ColumnMetadata[]) => columns.map((column) => column.databaseName).join(', ');
    const key = this.columns.filter((column) => column.isPrimary);
    const rest = this.columns.filter((column) => !column.isPrimary);
    this.keep = new MultiRowInsert(
      `INSERT INTO sensor (${names([...key, ...rest])}) VALUES `,
      [...key.map(() => '?'), ...rest.map(placeholderLiteral)],
      dialect.keep,
    );
    this.keyValues = persistentValues(dataSource.driver, key);
    this.overwrite = new MultiRowInsert(
      `INSERT INTO sensor (${names(this.columns)}) VALUES `,
      this.columns.length,
      dialect.overwrite(rest.map((column) => column.databaseName)),
    );
  }

  /** `together`: the placeholders and the locking read in one round trip (sensor-record-writer.ts says when). */
  async apply(manager: EntityManager, records: ProjectedRecord[], together = false): Promise<SensorTransition[]> {
    if (records.length === 0) return [];
    const bySensor = groupBySensor(records);
    const keys = [...bySensor.values()].map(([first]) => ({ uid: first!.uid, devId: first!.devId }));
    const stored = await this.keepAndRead(manager, keys, together);
    const transitions: SensorTransition[] = [];
    const after: SensorEntity[] = [];
    for (const [key, own] of bySensor) {
      const before = stored.get(key)!;
      const folded = fold(before.reportCount === 0 ? null : before, own);
      after.push(folded.sensor);
      for (const transition of folded.transitions) transitions.push(transition);
    }
    await this.overwrite.run(manager, after.map(this.values));
    return transitions;
  }

  /**
   * The rows not there yet inserted as placeholders (those there only locked), then every row read,
   * locked until the COMMIT: `together`, on MySQL in one round trip. A locking read, since a plain SELECT would
   * read the transaction's snapshot on MySQL, older than a row another batch committed while this one
   * waited for its lock. As plain SQL rather than through the query builder, whose building, escaping
   * and hydration of the select took a batch more than the rows' conversion; the placeholders sent
   * together in the text protocol, whose two values a sensor cost less to escape than the prepared
   * statements' round trips (docs/benchmark.md#where-the-time-goes).
   */
  private async keepAndRead(manager: EntityManager, keys: SensorKey[], together: boolean): Promise<Map<string, SensorEntity>> {
    const lock = manager.connection.options.type === 'mysql' ? ' FOR UPDATE' : '';
    const uids = [...new Set(keys.map((key) => key.uid))];
    const selects = uids.map((uid) => {
      const devIds = keys.filter((key) => key.uid === uid).map((key) => key.devId);
      return entitySelect(manager, SensorEntity, `WHERE uid = ? AND dev_id IN (${devIds.map(() => '?').join(', ')})${lock}`, [
        uid,
        ...devIds,
      ]);
    });
    let results: unknown[];
    if (together) [, ...results] = await queryTogether(manager, [this.keep.statement(keys.map(this.keyValues)), ...selects]);
    else {
      await this.keep.run(manager, keys.map(this.keyValues));
      results = await queryInTurn(manager, selects);
    }
    const found = new Map<string, SensorEntity>();
    selects.forEach((select, index) => {
      for (const row of select.read(results[index] as Array<Record<string, unknown>>)) found.set(sensorKey(row), row);
    });
    return found;
  }
}

type SensorKey = Pick<SensorEntity, 'uid' | 'devId'>;

/**
 * What a row not there yet holds until the same transaction writes it back whole: nothing any
 * reader sees (it is not committed before it is overwritten) and nothing the locking read takes
 * from it but its count of 0, which says "no record yet". Literals, so that a sensor binds its key
 * alone here (2 values, not 21); only the NOT NULL columns need a value.
 */
function placeholderLiteral(column: ColumnMetadata): string {
  if (column.isNullable) return 'NULL';
  const literal = PLACEHOLDERS[String(column.type)];
  if (literal === undefined) throw new Error(`sensor.${column.databaseName}: no placeholder for type ${String(column.type)}`);
  return literal;
}

const PLACEHOLDERS: Record<string, string> = { int: '0', boolean: '0', varchar: "''", datetime: "'2000-01-01 00:00:00'" };

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

/** The records per sensor, each sensor's in arrival order, the sensors in key order (uid, then dev_id by code point). */
function groupBySensor(records: ProjectedRecord[]): Map<string, ProjectedRecord[]> {
  const groups = new Map<string, ProjectedRecord[]>();
  for (const record of records) {
    const key = sensorKey(record);
    const group = groups.get(key);
    if (group) group.push(record);
    else groups.set(key, [record]);
  }
  // Each dev_id's bytes made once, not twice for every comparison of the sort.
  const ordered = [...groups].map(([key, group]) => ({ key, group, uid: group[0]!.uid, devId: Buffer.from(group[0]!.devId) }));
  ordered.sort((a, b) => a.uid - b.uid || Buffer.compare(a.devId, b.devId));
  return new Map(ordered.map(({ key, group }) => [key, group]));
}
