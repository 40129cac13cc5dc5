import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { DataSource } from 'typeorm';
import { TcpProxy } from './tcp-proxy.js';
import { until } from './until.js';

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
  /**
   * Resolves once the database has ended every connection the application gave up on during the
   * outage (MySQL: the proxy has delivered what it held back for them and the server has answered and
   * closed them, committing or rolling back their transactions), so that a read after it sees all they
   * will ever store. At once on SQLite, whose connections are in-process.
   */
  settled(): Promise<void>;
  /**
   * What the database itself holds and runs, read on a connection of its own past the outage and the
   * application's pool, for a failure to show: the `sensor_report` rows with these uuids, and on MySQL
   * the database's other sessions and the server's open transactions.
   */
  state(uuids: string[]): Promise<Record<string, unknown>>;
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
    settled: () => until(() => proxy.abandoned() === 0),
    async state(uuids) {
      const connection = await createConnection({ uri: originalUrl, dateStrings: true });
      try {
        const [[rows], [sessions], [transactions]] = await Promise.all([
          uuids.length === 0
            ? [[]]
            : connection.query('SELECT nid, vid, uuid, field_sensor_id, created FROM sensor_report WHERE uuid IN (?)', [uuids]),
          connection.query(
            'SELECT id, command, time, state, info FROM information_schema.PROCESSLIST WHERE db = DATABASE() AND id <> CONNECTION_ID()',
          ),
          connection.query(
            'SELECT trx_mysql_thread_id AS session, trx_state AS state, trx_started AS started, trx_rows_modified AS rows_modified, trx_query AS query FROM information_schema.INNODB_TRX',
          ),
        ]);
        return { rows, sessions, transactions, abandonedConnections: proxy.abandoned() };
      } finally {
        await connection.end();
      }
    },
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
    settled: async () => undefined,
    async state(uuids) {
      const reader = await new DataSource({ type: 'better-sqlite3', database: path, readonly: true }).initialize();
      try {
        const rows: unknown[] =
          uuids.length === 0
            ? []
            : await reader.query(
                `SELECT nid, vid, uuid, field_sensor_id, created FROM sensor_report WHERE uuid IN (${uuids.map(() => '?').join(', ')})`,
                uuids,
              );
        return { rows };
      } finally {
        await reader.destroy();
      }
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
