import { CommitUnconfirmedError } from './commit-unconfirmed.error.js';
import { DatabaseTimeoutError } from './database-timeout.error.js';
import { StaleWritesError } from './stale-writes.error.js';

/** Driver error codes that mean "the database cannot be reached or cannot take writes right now". */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  DatabaseTimeoutError.code,
  CommitUnconfirmedError.code,
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
  'ER_LOCK_WAIT_TIMEOUT',
  'ER_LOCK_DEADLOCK',
  StaleWritesError.code,
  'ER_OPTION_PREVENTS_STATEMENT',
  // A Galera node outside the primary component, or still joining: "WSREP has not yet prepared node for application use".
  'ER_UNKNOWN_COM_ERROR',
  'ER_CLIENT_INTERACTION_TIMEOUT',
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
  'SQLITE_IOERR',
  'SQLITE_FULL',
  'SQLITE_CANTOPEN',
  'SQLITE_READONLY',
]);

const UNAVAILABLE_ERROR_NAMES = new Set([
  'ConnectionIsNotSetError',
  'CannotExecuteNotConnectedError',
  'CannotConnectAlreadyConnectedError',
  'QueryRunnerAlreadyReleasedError',
]);

const UNAVAILABLE_MESSAGES = [
  /connection is in closed state/i,
  /Pool is closed/i,
  /Can't add new command when connection is in closed state/i,
  /The database connection is not open/i,
  /connect ETIMEDOUT/i,
];

/**
 * True when an error is the database being away or overloaded (the server's fault, answered 503),
 * rather than a bug (answered 500). Walks `driverError` and `cause` chains.
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 5) return false;
  const candidate = error as { code?: unknown; name?: unknown; message?: unknown; driverError?: unknown; cause?: unknown };
  if (typeof candidate.code === 'string' && UNAVAILABLE_CODES.has(primaryCode(candidate.code))) return true;
  if (typeof candidate.name === 'string' && UNAVAILABLE_ERROR_NAMES.has(candidate.name)) return true;
  if (typeof candidate.message === 'string' && UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(candidate.message as string))) {
    return true;
  }
  return isDatabaseUnavailable(candidate.driverError, depth + 1) || isDatabaseUnavailable(candidate.cause, depth + 1);
}

/** True when a wait for the database was given up at its deadline (a pooled connection, or a statement). */
export function isDatabaseTimeout(error: unknown): boolean {
  const { code, driverError } = (error ?? {}) as { code?: unknown; driverError?: { code?: unknown } };
  return [code, driverError?.code].some((found) => found === DatabaseTimeoutError.code || found === 'PROTOCOL_SEQUENCE_TIMEOUT');
}

/** SQLite reports extended codes (`SQLITE_IOERR_WRITE`); the primary code is the first two words. */
function primaryCode(code: string): string {
  return code.startsWith('SQLITE_') ? code.split('_').slice(0, 2).join('_') : code;
}

/** The 503 text when the database cannot be reached or answers too late: nothing was stored. */
export const DATABASE_UNAVAILABLE_MESSAGE = 'The database is temporarily unavailable; nothing was stored. Please retry.';
