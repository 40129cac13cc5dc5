import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DataSourceOptions, LogLevel } from 'typeorm';
import type { DatabaseConfig } from '../config/app-config.js';
import { boundedMysql2 } from './bounded-mysql2.js';
import { entities } from './entities.js';
import { migrations } from './migrations/index.js';

/**
 * The one definition of how the service reaches its database, shared by the application, the admin
 * command line and the TypeORM CLI (`ormconfig.ts`). The schema belongs to the migrations: never
 * `synchronize`.
 */
export function buildDataSourceOptions(database: DatabaseConfig): DataSourceOptions {
  const common = {
    entities,
    migrations,
    // Read by initializeDataSource(), which applies them under a lock rather than letting TypeORM race.
    migrationsRun: database.migrationsRun,
    migrationsTableName: 'schema_migrations',
    synchronize: false,
    logging: ['error'] satisfies LogLevel[],
  };
  if (database.type === 'sqlite') {
    if (database.path !== ':memory:') mkdirSync(dirname(database.path), { recursive: true });
    return {
      ...common,
      type: 'better-sqlite3',
      database: database.path,
      enableWAL: database.path !== ':memory:',
      // How long a statement waits for another process's write lock (better-sqlite3 blocks meanwhile);
      // a transaction inside a request waits no longer than the request has left (run-in-transaction.ts).
      timeout: database.requestTimeoutMs,
      prepareDatabase: (db: { pragma(source: string): unknown }) => {
        db.pragma('foreign_keys = ON');
      },
    };
  }
  return {
    ...common,
    type: 'mysql',
    url: database.url,
    charset: 'utf8mb4_unicode_ci',
    timezone: 'Z',
    poolSize: database.poolSize,
    // Waits inside a request (for a pooled connection, for each statement) end at its deadline.
    driver: boundedMysql2,
    // mysql2 captures a stack trace at every statement for the errors it might raise (its `trace`, on by
    // default): 4 % of a refresh grant's CPU. TypeORM's QueryFailedError carries the caller's stack anyway.
    trace: false,
    // A grant's writes go to the server in one round trip (send-together.ts). Every value reaches the SQL
    // through a `?` placeholder (escaped by the driver, or bound), never spliced in by hand, so no value
    // can add a statement.
    multipleStatements: true,
    extra: { connectTimeout: 5000, enableKeepAlive: true },
  };
}
