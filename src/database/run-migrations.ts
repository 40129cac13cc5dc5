import type { DataSource } from 'typeorm';

const MIGRATION_LOCK = 'sensor_records_schema_migrations';

/**
 * Applies pending migrations. On MySQL a named lock serialises instances that start together, so
 * two of them never race to create the same table.
 */
export async function runMigrations(dataSource: DataSource): Promise<void> {
  if (dataSource.options.type !== 'mysql') {
    await dataSource.runMigrations({ transaction: 'each' });
    return;
  }
  const runner = dataSource.createQueryRunner();
  try {
    await runner.connect();
    const [{ acquired }] = await runner.query('SELECT GET_LOCK(?, 60) AS acquired', [MIGRATION_LOCK]);
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
