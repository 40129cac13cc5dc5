import type { DataSource } from 'typeorm';
import { withLease } from './lease.js';

/** How long an instance waits for another one to finish migrating. */
const MIGRATION_LOCK_WAIT_SECONDS = 60;

/**
 * Applies pending migrations, one instance at a time: instances that start together must not race to
 * create the same table. On MySQL the lease `migrations` serialises them, on one server or across the
 * nodes of a Galera cluster (lease.ts); on SQLite the file's write lock does.
 */
export async function runMigrations(dataSource: DataSource): Promise<void> {
  if (dataSource.options.type !== 'mysql') {
    await runSqliteMigrations(dataSource);
    return;
  }
  await withLease(dataSource, 'migrations', MIGRATION_LOCK_WAIT_SECONDS, () => dataSource.runMigrations({ transaction: 'each' }));
}

/**
 * The write lock is taken (BEGIN IMMEDIATE) before the applied migrations are read, and every pending
 * one is applied in that transaction, so another instance waits and then finds nothing left to do.
 * Foreign keys are switched off around it, as TypeORM does around each migration: the pragma has no
 * effect inside a transaction.
 */
async function runSqliteMigrations(dataSource: DataSource): Promise<void> {
  const runner = dataSource.createQueryRunner();
  const usualWait = (dataSource.options as { timeout?: number }).timeout ?? 5000;
  await runner.query('PRAGMA foreign_keys = OFF');
  await runner.query(`PRAGMA busy_timeout = ${MIGRATION_LOCK_WAIT_SECONDS * 1000}`);
  try {
    await runner.query('BEGIN IMMEDIATE');
    try {
      await dataSource.runMigrations({ transaction: 'none' });
      await runner.query('COMMIT');
    } catch (error) {
      await runner.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  } finally {
    await runner.query(`PRAGMA busy_timeout = ${usualWait}`);
    await runner.query('PRAGMA foreign_keys = ON');
  }
}
