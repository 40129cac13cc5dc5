import type { DataSource, EntityManager } from 'typeorm';
import { MultiRowInsert } from '../database/multi-row-insert.js';
import { persistentValues, sqlLiteral } from '../database/persistent-values.js';
import { SensorRecordEntity } from './sensor-record.entity.js';
import { COPIED_IN_EVERY_RECORD, SAME_IN_EVERY_RECORD, type NewSensorRecordRow } from './new-sensor-record.row.js';
import type { ColumnMetadata } from '../database/column-metadata.js';

/**
 * Parameters one statement may bind: SQLite's limit (SQLITE_MAX_VARIABLE_NUMBER, 32766 since 3.32);
 * MySQL's is 65535.
 */
export const MAX_BOUND_PARAMETERS = 32_766;

/**
 * The multi-row INSERT of new sensor records, as plain SQL with `?` placeholders (both drivers take
 * them). The query builder's parameter bookkeeping grows with rows × columns and cost more than the
 * rest of the write (docs/benchmark.md#choices-made-by-measurement). Values still go through the
 * driver's own conversion, so they are stored exactly as the repository would store them. Only what
 * differs between records is bound: the columns every record has the same value in are literals of the
 * statement, and on MySQL a column that copies another of its row names that column, which MySQL reads
 * as the value the row has just set it to (SQLite binds the other column's value again).
 */
export class SensorRecordInsert {
  private readonly insert: MultiRowInsert;
  private readonly values: (row: NewSensorRecordRow) => unknown[];

  constructor(dataSource: DataSource) {
    const metadata = dataSource.getMetadata(SensorRecordEntity);
    const { driver } = dataSource;
    const same: Record<string, unknown> = SAME_IN_EVERY_RECORD;
    const copied: Record<string, string> = COPIED_IN_EVERY_RECORD;
    const sourceOf = (column: ColumnMetadata) => metadata.findColumnWithPropertyName(copied[column.propertyName]!)!;
    // `nid` comes from the database; `vid` is set to it once known.
    const columns = metadata.columns.filter((column) => !column.isGenerated && column.propertyName !== 'vid');
    const bound = columns.filter((column) => !Object.hasOwn(same, column.propertyName) && !Object.hasOwn(copied, column.propertyName));
    const copies = columns.filter((column) => Object.hasOwn(copied, column.propertyName));
    const literals = columns.filter((column) => Object.hasOwn(same, column.propertyName));
    const byReference = dataSource.options.type === 'mysql';
    // After the bound columns, so that each copy's own column is set before it is read.
    const names = [...bound, ...copies, ...literals].map((column) => driver.escape(column.databaseName)).join(', ');
    const row = [
      ...bound.map(() => '?'),
      ...copies.map((column) => (byReference ? driver.escape(sourceOf(column).databaseName) : '?')),
      ...literals.map((column) => sqlLiteral(driver, column, same[column.propertyName])),
    ];
    this.insert = new MultiRowInsert(`INSERT INTO ${driver.escape(metadata.tableName)} (${names}) VALUES `, row);
    this.values = persistentValues(driver, byReference ? bound : [...bound, ...copies.map(sourceOf)]);
  }

  /** Inserts the rows, in order, in the transaction of `manager`. */
  run(manager: EntityManager, rows: NewSensorRecordRow[]): Promise<void> {
    return this.insert.run(manager, rows.map(this.values));
  }
}
