import type { DataSource } from 'typeorm';
import { SensorRecordEntity } from './sensor-record.entity.js';
import type { NewSensorRecordRow } from './new-sensor-record.row.js';
import type { ColumnMetadata } from '../database/column-metadata.js';

/**
 * Parameters one statement may bind: SQLite's limit (SQLITE_MAX_VARIABLE_NUMBER, 32766 since 3.32);
 * mysql2 fills the values in on the client, where only the packet size bounds a statement.
 */
export const MAX_BOUND_PARAMETERS = 32_766;

/**
 * Builds the multi-row INSERT of new sensor records as plain SQL with `?` placeholders (both drivers
 * take them). The query builder's parameter bookkeeping grows with rows × columns and cost more
 * than the rest of the write (docs/benchmark.md#choices-made-by-measurement). Values still go
 * through the driver's own conversion, so they are stored exactly as the repository would store them.
 */
export class SensorRecordInsert {
  private readonly columns: ColumnMetadata[];
  private readonly prefix: string;
  private readonly rowPlaceholders: string;
  /** Rows one statement holds: as many as the parameter limit allows at this many columns. */
  readonly rowsPerStatement: number;

  constructor(private readonly dataSource: DataSource) {
    const metadata = dataSource.getMetadata(SensorRecordEntity);
    const { driver } = dataSource;
    // `nid` comes from the database; `vid` is set to it once known.
    this.columns = metadata.columns.filter((column) => !column.isGenerated && column.propertyName !== 'vid');
    const names = this.columns.map((column) => driver.escape(column.databaseName)).join(', ');
    this.prefix = `INSERT INTO ${driver.escape(metadata.tableName)} (${names}) VALUES `;
    this.rowPlaceholders = `(${this.columns.map(() => '?').join(', ')})`;
    this.rowsPerStatement = Math.floor(MAX_BOUND_PARAMETERS / this.columns.length);
  }

  /** The INSERT statements for the rows, in order: one, or more when the rows are more than one statement holds. */
  statements(rows: NewSensorRecordRow[]): Array<[sql: string, parameters: unknown[]]> {
    const statements: Array<[string, unknown[]]> = [];
    for (let start = 0; start < rows.length; start += this.rowsPerStatement) {
      statements.push(this.statement(rows.slice(start, start + this.rowsPerStatement)));
    }
    return statements;
  }

  private statement(rows: NewSensorRecordRow[]): [sql: string, parameters: unknown[]] {
    const { driver } = this.dataSource;
    const parameters = rows.flatMap((row) =>
      this.columns.map((column) => driver.preparePersistentValue(column.getEntityValue(row), column)),
    );
    return [this.prefix + rows.map(() => this.rowPlaceholders).join(', '), parameters];
  }
}
