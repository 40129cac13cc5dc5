import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { TcpProxy } from './tcp-proxy.js';

/** How the database is made unavailable and brought back, for the engine DATABASE_URL names. */
export interface DatabaseOutage {
  /** `mysql`: through a proxy the test controls; `sqlite`: a database file another connection can lock. */
  readonly engine: 'mysql' | 'sqlite';
  /** Points DATABASE_URL at a database this outage controls; call before the application is built. */
  prepare(): Promise<void>;
  begin(): Promise<void>;
  /**
   * Begins the outage as the application sends a statement holding `marker` for the `occurrence`-th
   * time, before the server sees it (MySQL only: a file lock cannot fall between two reads).
   */
  beginBefore(marker: string, occurrence: number): void;
  end(): Promise<void>;
  /** Disposes of the outage and puts DATABASE_URL back. */
  dispose(): Promise<void>;
}

/**
 * The outage that fits the database the suites run on. MySQL, through a proxy: `cut` drops every
 * connection and refuses new ones; `stall` stops the bytes but keeps every connection open, so the
 * application hears nothing at all. SQLite, either way: a second connection holds the file's write
 * lock, so writes wait for it until their deadline (reads go on, as WAL allows). There the database
 * time of a request is shortened to the least allowed, only to keep the suites short.
 */
export function databaseOutage(kind: 'cut' | 'stall' = 'cut'): DatabaseOutage {
  const originalUrl = process.env.DATABASE_URL ?? 'sqlite::memory:';
  return originalUrl.startsWith('mysql://') ? proxyOutage(originalUrl, kind) : lockOutage(originalUrl);
}

function proxyOutage(originalUrl: string, kind: 'cut' | 'stall'): DatabaseOutage {
  const url = new URL(originalUrl);
  const proxy = new TcpProxy(url.hostname, Number(url.port || 3306));
  return {
    engine: 'mysql',
    async prepare() {
      url.hostname = '127.0.0.1';
      url.port = String(await proxy.start());
      process.env.DATABASE_URL = url.toString();
    },
    begin: async () => (kind === 'cut' ? proxy.cut() : proxy.stall()),
    beginBefore: (marker, occurrence) => proxy.cutBefore(marker, occurrence),
    end: async () => void (kind === 'cut' ? await proxy.start() : proxy.resume()),
    async dispose() {
      await proxy.stop();
      process.env.DATABASE_URL = originalUrl;
    },
  };
}

function lockOutage(originalUrl: string): DatabaseOutage {
  const directory = mkdtempSync(join(tmpdir(), 'sensor-records-outage-'));
  const path = join(directory, 'records.sqlite');
  const originalTimeout = process.env.DB_REQUEST_TIMEOUT_MS;
  let blocker: DataSource | undefined;
  return {
    engine: 'sqlite',
    async prepare() {
      process.env.DATABASE_URL = `sqlite:${path}`;
      process.env.DB_REQUEST_TIMEOUT_MS ??= '500';
    },
    async begin() {
      blocker = await new DataSource({ type: 'better-sqlite3', database: path }).initialize();
      await blocker.query('BEGIN EXCLUSIVE');
    },
    beginBefore() {
      throw new Error('An outage before a given statement needs the MySQL proxy.');
    },
    async end() {
      await blocker?.query('ROLLBACK');
      await blocker?.destroy();
      blocker = undefined;
    },
    async dispose() {
      if (blocker?.isInitialized) await blocker.destroy();
      rmSync(directory, { recursive: true, force: true });
      process.env.DATABASE_URL = originalUrl;
      if (originalTimeout === undefined) delete process.env.DB_REQUEST_TIMEOUT_MS;
      else process.env.DB_REQUEST_TIMEOUT_MS = originalTimeout;
    },
  };
}
