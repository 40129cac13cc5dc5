import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { DataSource } from 'typeorm';
import { isWriteConflict } from './write-conflict.js';

const LOCK_TABLE = 'schema_migrations_lock';
const LOCK_NAME = 'migrations';
/** How long a holder's claim lasts unless renewed: a holder that died blocks the others no longer. */
const LEASE_SECONDS = 30;
const RENEW_EVERY_MS = 10_000;
/** Waiters try again after about this long (jittered). */
const POLL_MS = 250;

/**
 * Runs `work` (the migrations) while this process holds the one migration lock of the database, waiting
 * at most `waitSeconds` for it. The lock is a row: whoever inserts it holds it. A named lock
 * (GET_LOCK) would do on one server, but on a Galera cluster it holds on one node only; an INSERT
 * commits only once the whole cluster has certified it, so two nodes cannot both take the row. The row
 * carries a lease, renewed while `work` runs, and a row whose lease has run out (its holder died) is
 * taken over. The table is created here, before any migration can run.
 */
export async function withMigrationLock<T>(dataSource: DataSource, waitSeconds: number, work: () => Promise<T>): Promise<T> {
  await dataSource.query(
    `CREATE TABLE IF NOT EXISTS ${LOCK_TABLE} (` +
      "name VARCHAR(64) NOT NULL PRIMARY KEY COMMENT 'What is locked: migrations', " +
      "holder CHAR(36) NOT NULL COMMENT 'Random id of the process applying the migrations', " +
      "expires_at DATETIME NOT NULL COMMENT 'UTC instant the holder''s claim ends unless renewed'" +
      ') ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci ' +
      "COMMENT='The lock row of the instance applying the migrations, on one server or a Galera cluster'",
  );
  const holder = randomUUID();
  await acquire(dataSource, holder, Date.now() + waitSeconds * 1000);
  const renewal = setInterval(() => {
    // A failed renewal is tried again at the next tick; the lease outlasts two of them.
    dataSource
      .query(`UPDATE ${LOCK_TABLE} SET expires_at = UTC_TIMESTAMP() + INTERVAL ? SECOND WHERE name = ? AND holder = ?`, [
        LEASE_SECONDS,
        LOCK_NAME,
        holder,
      ])
      .catch(() => undefined);
  }, RENEW_EVERY_MS);
  renewal.unref();
  try {
    return await work();
  } finally {
    clearInterval(renewal);
    await dataSource.query(`DELETE FROM ${LOCK_TABLE} WHERE name = ? AND holder = ?`, [LOCK_NAME, holder]);
  }
}

async function acquire(dataSource: DataSource, holder: string, giveUpAt: number): Promise<void> {
  for (;;) {
    try {
      await dataSource.query(`DELETE FROM ${LOCK_TABLE} WHERE name = ? AND expires_at < UTC_TIMESTAMP()`, [LOCK_NAME]);
      await dataSource.query(`INSERT INTO ${LOCK_TABLE} (name, holder, expires_at) VALUES (?, ?, UTC_TIMESTAMP() + INTERVAL ? SECOND)`, [
        LOCK_NAME,
        holder,
        LEASE_SECONDS,
      ]);
      return;
    } catch (error) {
      // Held by another: the row is there (a duplicate key), or another node took it at the same moment (a conflict).
      if (!isDuplicateKey(error) && !isWriteConflict(error)) throw error;
    }
    if (Date.now() >= giveUpAt) throw new Error('Timed out waiting for another instance to finish migrating');
    await delay(POLL_MS * (0.5 + Math.random()));
  }
}

function isDuplicateKey(error: unknown): boolean {
  const { code, driverError } = (error ?? {}) as { code?: unknown; driverError?: { code?: unknown } };
  return code === 'ER_DUP_ENTRY' || driverError?.code === 'ER_DUP_ENTRY';
}
