import type { DataSource, EntityManager } from 'typeorm';
import { MultiRowInsert } from '../database/multi-row-insert.js';
import { SensorRecordEntity } from './sensor-record.entity.js';
import type { NewSensorRecordRow } from './new-sensor-record.row.js';
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
 * driver's own conversion, so they are stored exactly as the repository would store them.
 */
export class SensorRecordInsert {
  private readonly columns: ColumnMetadata[];
  private readonly insert: MultiRowInsert;

  constructor(private readonly dataSource: DataSource) {
    const metadata = dataSource.getMetadata(SensorRecordEntity);
    const { driver } = dataSource;
    // `nid` comes from the database; `vid` is set to it once known.
    this.columns = metadata.columns.filter((column) => !column.isGenerated && column.propertyName !== 'vid');
    const names = this.columns.map((column) => driver.escape(column.databaseName)).join(', ');
    this.insert = new MultiRowInsert(`INSERT INTO ${driver.escape(metadata.tableName)} (${names}) VALUES `, this.columns.length);
  }

  /** Inserts the rows, in order, in the transaction of `manager`. */
  run(manager: EntityManager, rows: NewSensorRecordRow[]): Promise<void> {
    const { driver } = this.dataSource;
    return this.insert.run(
      manager,
      rows.map((row) => this.columns.map((column) => driver.preparePersistentValue(column.getEntityValue(row), column))),
    );
  }
}
