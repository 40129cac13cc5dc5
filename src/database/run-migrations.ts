import type { DataSource } from 'typeorm';

const MIGRATION_LOCK = 'sensor_records_schema_migrations';
/** How long an instance waits for another one to finish migrating. */
const MIGRATION_LOCK_WAIT_SECONDS = 60;

/**
 * Applies pending migrations, one instance at a time: instances that start together must not race to
 * create the same table. On MySQL a named lock serialises them; on SQLite the file's write lock does.
 */
export async function runMigrations(dataSource: DataSource): Promise<void> {
  if (dataSource.options.type !== 'mysql') {
    await runSqliteMigrations(dataSource);
    return;
  }
  const runner = dataSource.createQueryRunner();
  try {
    await runner.connect();
    const [{ acquired }] = await runner.query('SELECT GET_LOCK(?, ?) AS acquired', [MIGRATION_LOCK, MIGRATION_LOCK_WAIT_SECONDS]);
    if (Number(acquired) !== 1) throw new Error('Timed out waiting for another instance to finish migrating');
    try {
      await dataSource.runMigrations({ transaction: 'each' });
    } finally {
      await runner.query('SELECT RELEASE_LOCK(?)', [MIGRATION_LOCK]);
    }
  } finally {
    await runner.release();
  }
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
