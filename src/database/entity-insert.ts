import type { DataSource, EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import { MultiRowInsert } from './multi-row-insert.js';
import { persistentValues } from './persistent-values.js';

/**
 * The multi-row INSERT of an entity's new rows (multi-row-insert.ts), every column but the generated
 * ones (`Generated`: the properties the database gives) bound, each value converted as its repository
 * converts it, without the repository's query building, which cost the alerts' outbox more than the
 * statement (docs/benchmark.md#alerts). Nothing is read back.
 */
export class EntityInsert<E extends ObjectLiteral, Generated extends keyof E = never> {
  private readonly insert: MultiRowInsert;
  private readonly values: (row: Omit<E, Generated>) => unknown[];

  constructor(dataSource: DataSource, entity: EntityTarget<E>) {
    const metadata = dataSource.getMetadata(entity);
    const { driver } = dataSource;
    const columns = metadata.columns.filter((column) => !column.isGenerated);
    const names = columns.map((column) => driver.escape(column.databaseName)).join(', ');
    this.insert = new MultiRowInsert(`INSERT INTO ${driver.escape(metadata.tableName)} (${names}) VALUES `, columns.length);
    this.values = persistentValues(driver, columns);
  }

  /** Inserts the rows, in order, in the transaction of `manager`. */
  run(manager: EntityManager, rows: Array<Omit<E, Generated>>): Promise<void> {
    return this.insert.run(manager, rows.map(this.values));
  }
}
