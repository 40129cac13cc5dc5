import { DataSource, type DataSourceOptions } from 'typeorm';
import { runMigrations } from './run-migrations.js';

/** Connects and, when the options ask for it, brings the schema up to date. */
export async function initializeDataSource(options: DataSourceOptions): Promise<DataSource> {
  const dataSource = await new DataSource({ ...options, migrationsRun: false }).initialize();
  try {
    if (options.migrationsRun) await runMigrations(dataSource);
  } catch (error) {
    await dataSource.destroy();
    throw error;
  }
  return dataSource;
}
