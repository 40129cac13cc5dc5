import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { TcpProxy } from './tcp-proxy.js';
import type { TestApp } from './test-app.js';

/** How the database is made unavailable and brought back, for the engine DATABASE_URL names. */
export interface DatabaseOutage {
  /** Points DATABASE_URL at a database this outage controls (call before creating the application). */
  prepare(): Promise<void>;
  afterStart(testApp: TestApp): Promise<void>;
  begin(): Promise<void>;
  end(): Promise<void>;
  /** Removes what `prepare` made and restores DATABASE_URL. */
  dispose(): Promise<void>;
}

/** The outage that fits the database the suites run on: a cut proxy for MySQL, a held write lock for SQLite. */
export function databaseOutage(): DatabaseOutage {
  const originalUrl = process.env.DATABASE_URL ?? 'sqlite::memory:';
  const outage = originalUrl.startsWith('mysql://') ? proxyOutage(originalUrl) : lockOutage();
  return {
    ...outage,
    async dispose() {
      await outage.dispose();
      process.env.DATABASE_URL = originalUrl;
    },
  };
}

/** MySQL: the application reaches the shared server through a proxy that the test cuts. */
function proxyOutage(databaseUrl: string): DatabaseOutage {
  const url = new URL(databaseUrl);
  const proxy = new TcpProxy(url.hostname, Number(url.port || 3306));
  return {
    async prepare() {
      url.hostname = '127.0.0.1';
      url.port = String(await proxy.start());
      process.env.DATABASE_URL = url.toString();
    },
    afterStart: async () => undefined,
    begin: () => proxy.cut(),
    end: async () => void (await proxy.start()),
    dispose: () => proxy.stop(),
  };
}

/** SQLite: a second connection holds the file's write lock, so every write fails with SQLITE_BUSY. */
function lockOutage(): DatabaseOutage {
  const directory = mkdtempSync(join(tmpdir(), 'sensor-records-outage-'));
  const path = join(directory, 'records.sqlite');
  let blocker: DataSource | undefined;
  return {
    async prepare() {
      process.env.DATABASE_URL = `sqlite:${path}`;
    },
    // Keeps each refused write short; the application default waits 5 seconds for the lock.
    afterStart: async (testApp) => void (await testApp.dataSource.query('PRAGMA busy_timeout = 20')),
    async begin() {
      blocker = await new DataSource({ type: 'better-sqlite3', database: path }).initialize();
      await blocker.query('BEGIN EXCLUSIVE');
    },
    async end() {
      await blocker?.query('ROLLBACK');
      await blocker?.destroy();
      blocker = undefined;
    },
    async dispose() {
      if (blocker?.isInitialized) await blocker.destroy();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
