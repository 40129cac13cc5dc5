import { setTimeout as delay } from 'node:timers/promises';
import { databaseTimeLeft } from './database-deadline.js';

/** Attempts at a unit of work the database rolled back for a write conflict, the first included. */
export const WRITE_CONFLICT_ATTEMPTS = 6;

/** The longest wait before the second attempt; it doubles for each one after (full jitter: up to 10, 20, 40, 80, 160 ms). */
const FIRST_BACKOFF_MS = 10;

let retries = 0;

/** Attempts made again after a write conflict since the process started (`/metrics`). */
export function writeConflictRetries(): number {
  return retries;
}

/**
 * Error 1213 (ER_LOCK_DEADLOCK): InnoDB chose the transaction as a deadlock's victim, or a Galera node
 * refused it at COMMIT because another node committed a conflicting write first (a certification
 * failure), or aborted it to apply such a write. In every case the server has rolled back the whole
 * transaction, so it can be run again from the start. Not 1205 (lock wait timeout): the server rolls
 * back only the statement, and the wait has already spent the request's time.
 */
export function isWriteConflict(error: unknown): boolean {
  const { code, errno, driverError } = (error ?? {}) as {
    code?: unknown;
    errno?: unknown;
    driverError?: { code?: unknown; errno?: unknown };
  };
  return code === 'ER_LOCK_DEADLOCK' || errno === 1213 || driverError?.code === 'ER_LOCK_DEADLOCK' || driverError?.errno === 1213;
}

/**
 * Runs `attempt`, and runs it again, up to WRITE_CONFLICT_ATTEMPTS times in all, while it fails with a
 * write conflict, after a short random wait (so that the transactions that met do not meet again) that
 * leaves the caller's database deadline room for the next attempt. The last error is thrown as it came:
 * the exception filter answers it 503. `attempt` must be safe to run again from the start once the
 * database has rolled it back: a transaction, or statements ordered so that stopping after any of them
 * leaves the data as a client's retry would find it.
 */
export async function retryWriteConflicts<T>(attempt: () => Promise<T>): Promise<T> {
  for (let attempted = 1; ; attempted++) {
    try {
      return await attempt();
    } catch (error) {
      if (!isWriteConflict(error) || attempted >= WRITE_CONFLICT_ATTEMPTS) throw error;
      const wait = Math.random() * FIRST_BACKOFF_MS * 2 ** (attempted - 1);
      if (databaseTimeLeft() <= wait) throw error;
      retries++;
      await delay(wait);
    }
  }
}
