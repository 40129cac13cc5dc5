import type { DataSource, DataSourceOptions } from 'typeorm';
import { runMigrations } from './run-migrations.js';
import { ServiceDataSource } from './service-data-source.js';

export type Connect = (options: DataSourceOptions) => Promise<DataSource>;

const connectOnce: Connect = (options) => new ServiceDataSource(options).initialize();

/** Connects and, when the options ask for it, brings the schema up to date. */
export async function initializeDataSource(options: DataSourceOptions, connect: Connect = connectOnce): Promise<DataSource> {
  const dataSource = await connect({ ...options, migrationsRun: false });
  try {
    if (options.migrationsRun) await runMigrations(dataSource);
  } catch (error) {
    await dataSource.destroy();
    throw error;
  }
  return dataSource;
}
