import type { DataSource, EntityManager } from 'typeorm';
import { MultiRowInsert } from '../database/multi-row-insert.js';
import { persistentValues, sqlLiteral } from '../database/persistent-values.js';
import { SensorRecordEntity } from './sensor-record.entity.js';
import { SAME_IN_EVERY_RECORD, type NewSensorRecordRow } from './new-sensor-record.row.js';

/**
 * Parameters one statement may bind: SQLite's limit (SQLITE_MAX_VARIABLE_NUMBER, 32766 since 3.32);
 * MySQL's is 65535.
 */
export const MAX_BOUND_PARAMETERS = 32_766;

/**
 * The multi-row INSERT of new sensor records, as plain SQL with `?` placeholders (both drivers take
 * them). The query builder's parameter bookkeeping grows with rows × columns and cost more than the
 * rest of the write (docs/benchmark.md#choices-made-by-measurement). Values still go through the
 * driver's own conversion, so they are stored exactly as the repository would store them; the columns
 * every record has the same value in are literals of the statement, not values bound for every row.
 */
export class SensorRecordInsert {
  private readonly insert: MultiRowInsert;
  private readonly values: (row: NewSensorRecordRow) => unknown[];

  constructor(dataSource: DataSource) {
    const metadata = dataSource.getMetadata(SensorRecordEntity);
    const { driver } = dataSource;
    const same: Record<string, unknown> = SAME_IN_EVERY_RECORD;
    // `nid` comes from the database; `vid` is set to it once known.
    const columns = metadata.columns.filter((column) => !column.isGenerated && column.propertyName !== 'vid');
    const bound = columns.filter((column) => !Object.hasOwn(same, column.propertyName));
    const literals = columns.filter((column) => Object.hasOwn(same, column.propertyName));
    const names = [...bound, ...literals].map((column) => driver.escape(column.databaseName)).join(', ');
    const row = [...bound.map(() => '?'), ...literals.map((column) => sqlLiteral(driver, column, same[column.propertyName]))];
    this.insert = new MultiRowInsert(`INSERT INTO ${driver.escape(metadata.tableName)} (${names}) VALUES `, row);
    this.values = persistentValues(driver, bound);
  }

  /** Inserts the rows, in order, in the transaction of `manager`. */
  run(manager: EntityManager, rows: NewSensorRecordRow[]): Promise<void> {
    return this.insert.run(manager, rows.map(this.values));
  }
}
