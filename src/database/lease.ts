import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { DataSource, EntityManager } from 'typeorm';
import { rowsChanged } from './plain-sql.js';
import { runStatements } from './run-in-transaction.js';
import { isWriteConflict } from './write-conflict.js';

const TABLE = 'leases';
/** How long a holder's claim lasts unless renewed: a holder that died blocks the others no longer. */
const LEASE_SECONDS = 30;
/** Renewals come this often, three to a claim, so one that fails is followed by another in time. */
const RENEW_EVERY_MS = (LEASE_SECONDS * 1000) / 3;
/** Waiters try again after about this long (jittered). */
const POLL_MS = 250;

/** A lease this process holds; `signal` is aborted once it is no longer sure to hold it. */
export interface HeldLease {
  name: string;
  signal: AbortSignal;
}

export class LeaseTimeoutError extends Error {}

interface Dialect {
  create: string;
  /** The database's clock, `seconds` ahead (a parameter). */
  ahead: string;
  now: string;
}

const MYSQL: Dialect = {
  create:
    `CREATE TABLE IF NOT EXISTS ${TABLE} (` +
    "name VARCHAR(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL PRIMARY KEY COMMENT 'What the lease is for: migrations, retention, …', " +
    "holder CHAR(36) CHARACTER SET ascii COLLATE ascii_bin NOT NULL COMMENT 'Random id of the process holding it', " +
    "expires_at DATETIME NOT NULL COMMENT 'UTC instant the holder''s claim ends unless renewed'" +
    ') ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci ' +
    "COMMENT='Named leases: the row of the one instance doing a piece of work (migrations, retention), on one server or a Galera cluster'",
  ahead: 'UTC_TIMESTAMP() + INTERVAL ? SECOND',
  now: 'UTC_TIMESTAMP()',
};

// Instants as text in one format, which compares in time order.
const SQLITE: Dialect = {
  create: `CREATE TABLE IF NOT EXISTS ${TABLE} (name varchar(64) PRIMARY KEY NOT NULL, holder varchar(36) NOT NULL, expires_at datetime NOT NULL)`,
  ahead: "strftime('%Y-%m-%d %H:%M:%f', 'now', '+' || ? || ' seconds')",
  now: "strftime('%Y-%m-%d %H:%M:%f', 'now')",
};

const tablesMade = new WeakSet<DataSource>();

/**
 * Runs `work` while this process holds the lease `name`, waiting at most `waitSeconds` for it
 * (LeaseTimeoutError past that).
 */
export async function withLease<T>(
  dataSource: DataSource,
  name: string,
  waitSeconds: number,
  work: (lease: HeldLease) => Promise<T>,
): Promise<T> {
  const giveUpAt = Date.now() + waitSeconds * 1000;
  for (;;) {
    const ran = await withLeaseIfFree(dataSource, name, work);
    if (ran.held) return ran.value;
    if (Date.now() >= giveUpAt) throw new LeaseTimeoutError(`Timed out waiting for another instance to finish (${name})`);
    await delay(POLL_MS * (0.5 + Math.random()));
  }
}

/**
 * Runs `work` if the lease `name` is free now (or its holder's claim has run out), and answers
 * `{ held: false }` at once when another process holds it: for periodic work that one instance of
 * several does each time.
 *
 * The lease is a row: whoever inserts it holds it. A named lock (GET_LOCK) would do on one server,
 * but on a Galera cluster it holds on one node only; an INSERT commits only once the whole cluster has
 * certified it, so two nodes cannot both take the row. The claim is renewed while `work` runs, and a
 * row whose claim has run out (its holder died) is taken over. Expiry is read from the database's
 * clock, the one clock every instance shares. When a renewal finds the row gone or taken over, or
 * cannot reach the database until the claim would have run out, `lease.signal` is aborted: `work`
 * should stop at its next step, since another process may now hold the lease.
 */
export async function withLeaseIfFree<T>(
  dataSource: DataSource,
  name: string,
  work: (lease: HeldLease) => Promise<T>,
  renewEveryMs = RENEW_EVERY_MS,
): Promise<{ held: true; value: T } | { held: false }> {
  const dialect = dataSource.options.type === 'mysql' ? MYSQL : SQLITE;
  await makeTable(dataSource, dialect);
  const holder = randomUUID();
  if (!(await take(dataSource, dialect, name, holder))) return { held: false };
  const lost = new AbortController();
  let lastRenewed = Date.now();
  const renewal = setInterval(() => {
    statements(dataSource, (manager) =>
      rowsChanged(manager, `UPDATE ${TABLE} SET expires_at = ${dialect.ahead} WHERE name = ? AND holder = ?`, [
        LEASE_SECONDS,
        name,
        holder,
      ]),
    ).then(
      (changed) => {
        if (changed === 0) lost.abort(new Error(`The lease ${name} was taken over`));
        else lastRenewed = Date.now();
      },
      // A failed renewal is tried again at the next tick; the claim outlasts two of them.
      () => {
        if (Date.now() - lastRenewed >= (LEASE_SECONDS * 1000 * 2) / 3) lost.abort(new Error(`The lease ${name} could not be renewed`));
      },
    );
  }, renewEveryMs);
  renewal.unref();
  try {
    return { held: true, value: await work({ name, signal: lost.signal }) };
  } finally {
    clearInterval(renewal);
    // Should this fail (the database away), the claim runs out by itself within LEASE_SECONDS.
    await statements(dataSource, (manager) => manager.query(`DELETE FROM ${TABLE} WHERE name = ? AND holder = ?`, [name, holder])).catch(
      () => undefined,
    );
  }
}

async function makeTable(dataSource: DataSource, dialect: Dialect): Promise<void> {
  if (tablesMade.has(dataSource)) return;
  await statements(dataSource, (manager) => manager.query(dialect.create));
  tablesMade.add(dataSource);
}

/** Inserts the lease row, after removing one whose claim has run out; false when another holds it. */
async function take(dataSource: DataSource, dialect: Dialect, name: string, holder: string): Promise<boolean> {
  try {
    await statements(dataSource, async (manager) => {
      await manager.query(`DELETE FROM ${TABLE} WHERE name = ? AND expires_at < ${dialect.now}`, [name]);
      await manager.query(`INSERT INTO ${TABLE} (name, holder, expires_at) VALUES (?, ?, ${dialect.ahead})`, [name, holder, LEASE_SECONDS]);
    });
    return true;
  } catch (error) {
    // Held by another: the row is there (a duplicate key), or another node took it at the same moment (a conflict).
    if (isDuplicateKey(error) || isWriteConflict(error)) return false;
    throw error;
  }
}

/**
 * The lease's statements each commit as they run, on their own: never inside a transaction `work` has
 * open (on SQLite's one shared connection they queue behind it), and never retried on a write conflict,
 * which here means that another process took the lease.
 */
function statements<T>(dataSource: DataSource, run: (manager: EntityManager) => Promise<T>): Promise<T> {
  return dataSource.options.type === 'mysql' ? run(dataSource.manager) : runStatements(dataSource, run);
}

function isDuplicateKey(error: unknown): boolean {
  const { code, driverError } = (error ?? {}) as { code?: unknown; driverError?: { code?: unknown } };
  const found = typeof code === 'string' ? code : driverError?.code;
  return found === 'ER_DUP_ENTRY' || (typeof found === 'string' && found.startsWith('SQLITE_CONSTRAINT'));
}
