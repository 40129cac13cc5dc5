import type { INestApplication, ModuleMetadata } from '@nestjs/common';
import { Test, TestingModuleBuilder } from '@nestjs/testing';
import { DataSource } from 'typeorm';
import { AppModule } from '../../src/app.module.js';
import { createApp } from '../../src/app.setup.js';
import { APP_CONFIG, loadConfig } from '../../src/config/app-config.js';
import { NodeTypeEntity } from '../../src/sensor-record/node-type.entity.js';

export interface TestApp {
  app: INestApplication;
  dataSource: DataSource;
  /** Empties every table the service writes, for a fresh start between tests on a shared database. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Replace providers (e.g. the log destination) before the application is built. */
  override?: (builder: TestingModuleBuilder) => TestingModuleBuilder;
  /** Test-only controllers mounted beside the application (e.g. a route behind the bearer guard). */
  controllers?: ModuleMetadata['controllers'];
  /**
   * Configuration of this application only, over the process's (e.g. a longer `DB_REQUEST_TIMEOUT_MS`
   * for a test whose large batches are not about the deadline); other applications of the file keep theirs.
   */
  env?: NodeJS.ProcessEnv;
}

/**
 * For suites whose batches of hundreds of reports, or bursts of requests sent at once, are not about the
 * database deadline: the longest one allowed, so that a busy machine still answers them as a quiet one
 * does. The 3 s default is production's (docs/operations.md#waiting-for-the-database), checked by the
 * suites about the deadline.
 */
export const UNHURRIED_DATABASE = { DB_REQUEST_TIMEOUT_MS: '60000' } as const;

/** Builds the real application, as `main.ts` does, on the database named by DATABASE_URL. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  let builder = Test.createTestingModule({ imports: [AppModule], controllers: options.controllers });
  const { env } = options;
  if (env) builder = builder.overrideProvider(APP_CONFIG).useFactory({ factory: () => loadConfig({ ...process.env, ...env }) });
  const moduleRef = await (options.override?.(builder) ?? builder).compile();
  const app = await createApp((adapter, appOptions) => moduleRef.createNestApplication(adapter, appOptions));
  await app.init();
  const dataSource = app.get(DataSource);
  return {
    app,
    dataSource,
    reset: () => resetTables(dataSource),
    close: () => app.close(),
  };
}

async function resetTables(dataSource: DataSource): Promise<void> {
  // The bundle's row in node_type is the installation's, seeded by its migration: kept.
  const tables = dataSource.entityMetadatas.filter((metadata) => metadata.target !== NodeTypeEntity).map((metadata) => metadata.tableName);
  const mysql = dataSource.options.type === 'mysql';
  await dataSource.transaction(async (manager) => {
    // Tables are emptied in any order: the foreign keys are checked (SQLite) or not at all (MySQL) once all are empty.
    if (mysql) await manager.query('SET FOREIGN_KEY_CHECKS = 0');
    else await manager.query('PRAGMA defer_foreign_keys = ON');
    for (const table of tables) await manager.query(`DELETE FROM ${dataSource.driver.escape(table)}`);
    if (mysql) await manager.query('SET FOREIGN_KEY_CHECKS = 1');
  });
}
