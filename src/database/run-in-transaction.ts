import type { DataSource, EntityManager } from 'typeorm';

const sqliteQueues = new WeakMap<DataSource, Promise<unknown>>();

/**
 * Runs `work` in a transaction. TypeORM's SQLite drivers share one connection, so two concurrent
 * transactions would silently nest as savepoints of one another; on SQLite they are queued instead.
 * MySQL gives each transaction its own pooled connection and row locks.
 */
export function runInTransaction<T>(dataSource: DataSource, work: (manager: EntityManager) => Promise<T>): Promise<T> {
  if (dataSource.options.type === 'mysql') return dataSource.transaction(work);
  const previous = sqliteQueues.get(dataSource) ?? Promise.resolve();
  const run = previous.catch(() => undefined).then(() => dataSource.transaction(work));
  sqliteQueues.set(dataSource, run);
  return run;
}
