import { setTimeout as delay } from 'node:timers/promises';
import type { DataSource, EntityManager } from 'typeorm';
import { DatabaseTimeoutError } from '../common/errors/database-timeout.error.js';
import { databaseDeadline, databaseTimeLeft } from './database-deadline.js';
import { retryWriteConflicts } from './write-conflict.js';

const sqliteQueues = new WeakMap<DataSource, Promise<unknown>>();

/**
 * While a request waits for another process's write lock on the SQLite file, better-sqlite3 would
 * block the whole process; it waits this long at a time instead, and between tries lets the process
 * serve everyone else.
 */
const SQLITE_LOCK_WAIT_MS = 10;
const SQLITE_LOCK_RETRY_MS = 25;

interface SqliteConnection {
  pragma(source: string): unknown;
}

/**
 * Runs `work` in a transaction. TypeORM's SQLite drivers share one connection, so two concurrent
 * transactions would silently nest as savepoints of one another; on SQLite they are queued instead.
 * MySQL gives each transaction its own pooled connection and row locks; a transaction the server rolls
 * back for a deadlock or, on a Galera cluster, a certification failure is run again whole, a bounded
 * number of times (write-conflict.ts), so `work` must have no effect outside the transaction.
 */
export function runInTransaction<T>(dataSource: DataSource, work: (manager: EntityManager) => Promise<T>): Promise<T> {
  if (dataSource.options.type === 'mysql') return retryWriteConflicts(() => dataSource.transaction(work));
  // The wait for a turn is a database wait: it starts the request's budget and ends at its deadline,
  // even when the transaction before it waits without one for another process's write lock.
  const deadline = databaseDeadline();
  const turn = (sqliteQueues.get(dataSource) ?? Promise.resolve()).catch(() => undefined);
  const run = (deadline === undefined ? turn : turnBefore(turn, deadline)).then(() => sqliteTransaction(dataSource, work));
  // The next waits for this one's work, or, when this one gave up its turn unrun, for the one before.
  sqliteQueues.set(dataSource, Promise.allSettled([turn, run]));
  return run;
}

/** Resolves when `turn` comes, or rejects at `deadline` if it has not: the work then never runs. */
function turnBefore(turn: Promise<unknown>, deadline: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new DatabaseTimeoutError('a turn on the database file')), Math.max(0, deadline - Date.now()));
    void turn.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * Outside a database deadline (migrations, the CLI) a transaction waits for the file's write lock
 * as long as the connection's busy timeout says. Inside one it tries in short waits until the
 * deadline: a transaction that met the lock was rolled back whole, so running `work` again is safe.
 */
async function sqliteTransaction<T>(dataSource: DataSource, work: (manager: EntityManager) => Promise<T>): Promise<T> {
  if (databaseTimeLeft() === Infinity) return dataSource.transaction(work);
  const connection = (dataSource.driver as unknown as { databaseConnection: SqliteConnection }).databaseConnection;
  const usual = (dataSource.options as { timeout?: number }).timeout ?? 5000;
  for (;;) {
    const timeLeft = databaseTimeLeft();
    if (timeLeft <= 0) throw new DatabaseTimeoutError('the database file');
    connection.pragma(`busy_timeout = ${Math.ceil(Math.min(timeLeft, SQLITE_LOCK_WAIT_MS))}`);
    try {
      return await dataSource.transaction(work);
    } catch (error) {
      if (!isSqliteBusy(error) || databaseTimeLeft() <= SQLITE_LOCK_RETRY_MS) throw error;
    } finally {
      connection.pragma(`busy_timeout = ${usual}`);
    }
    await delay(SQLITE_LOCK_RETRY_MS);
  }
}

function isSqliteBusy(error: unknown): boolean {
  const { code, driverError } = (error ?? {}) as { code?: unknown; driverError?: { code?: unknown } };
  const found = typeof code === 'string' ? code : driverError?.code;
  return typeof found === 'string' && found.startsWith('SQLITE_BUSY');
}

/**
 * Runs `work`, whose statements each commit as they run: `work` orders them so that stopping after any
 * one of them leaves the data consistent, and as a client's retry would find it. On MySQL they go to the
 * pool as they come, without the two extra round trips of BEGIN and COMMIT, and a statement refused for
 * a write conflict runs `work` again from the start, as a transaction would be. On SQLite a statement
 * outside a transaction would run inside whichever transaction happens to be open on TypeORM's one
 * shared connection, and be rolled back with it; there `work` waits its turn behind the other
 * transactions and runs as one of them.
 */
export function runStatements<T>(dataSource: DataSource, work: (manager: EntityManager) => Promise<T>): Promise<T> {
  if (dataSource.options.type === 'mysql') return retryWriteConflicts(() => work(dataSource.manager));
  return runInTransaction(dataSource, work);
}
