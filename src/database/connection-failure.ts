import type { DatabaseConfig } from '../config/app-config.js';

/** The database could not be reached or used at start-up; the message says what to do, in one line. */
export class DatabaseConnectionError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

/** Codes of a server that is not there yet or is restarting: waiting and trying again can help. */
const RETRYABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'PROTOCOL_CONNECTION_LOST',
  'EAI_AGAIN',
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
]);

/**
 * Turns a failed first connection into a one-line message that says what to do. Wrong names,
 * credentials and grants are reported at once: no number of retries fixes them.
 */
export function describeConnectionFailure(error: unknown, database: DatabaseConfig): DatabaseConnectionError {
  const { code, message } = driverError(error);
  if (database.type === 'sqlite') {
    return new DatabaseConnectionError(
      `Cannot open the SQLite database ${database.path}: ${message}; check DATABASE_URL and that the file's directory is writable.`,
      false,
    );
  }
  const url = new URL(database.url);
  const server = `${url.hostname}:${url.port || '3306'}`;
  const name = decodeURIComponent(url.pathname.slice(1));
  const user = decodeURIComponent(url.username);
  const text = (() => {
    switch (code) {
      case 'ER_BAD_DB_ERROR':
        return `Database "${name}" does not exist on ${server}: create it with CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;`;
      case 'ER_DBACCESS_DENIED_ERROR':
        return `User "${user}" may not use database "${name}" on ${server}: check the database name in DATABASE_URL, create the database if it is missing, and GRANT ALL PRIVILEGES ON \`${name}\`.* TO the user.`;
      case 'ER_ACCESS_DENIED_ERROR':
      case 'ER_ACCESS_DENIED_NO_PASSWORD_ERROR':
        return `Access denied for user "${user}" on ${server}: check the user name and password in DATABASE_URL.`;
      case 'ER_HOST_NOT_PRIVILEGED':
        return `User "${user}" may not connect to ${server} from this host: create the user for this host on the server (CREATE USER … @'<host>'), or connect from an allowed one.`;
      case 'ECONNREFUSED':
        return `Cannot connect to the database at ${server}: connection refused; check the host and port in DATABASE_URL and that MySQL/MariaDB is running.`;
      case 'ENOTFOUND':
      case 'EAI_AGAIN':
        return `Cannot connect to the database: host "${url.hostname}" not found; check the host in DATABASE_URL.`;
      case 'ECONNRESET':
      case 'PROTOCOL_CONNECTION_LOST':
        return `Cannot connect to the database at ${server}: the server closed the connection; check that it is MySQL/MariaDB and that it has finished starting.`;
      case 'ER_CON_COUNT_ERROR':
        return `Cannot connect to the database at ${server}: it has too many connections; lower DB_POOL_SIZE or raise the server's max_connections.`;
      case 'ETIMEDOUT':
        return `Cannot connect to the database at ${server}: no answer; check the host and port in DATABASE_URL and any firewall in between.`;
      default:
        return `Cannot connect to the database at ${server}: ${message.replace(/\.?$/, '.')}`;
    }
  })();
  return new DatabaseConnectionError(text, RETRYABLE.has(code));
}

/** TypeORM passes the driver's error through; a connection tried on several addresses fails as an AggregateError. */
function driverError(error: unknown): { code: string; message: string } {
  const candidate = (error ?? {}) as { code?: unknown; message?: unknown; errors?: unknown[] };
  const first = Array.isArray(candidate.errors) ? (candidate.errors[0] as { code?: unknown; message?: unknown } | undefined) : undefined;
  const code = typeof candidate.code === 'string' ? candidate.code : typeof first?.code === 'string' ? first.code : '';
  const message =
    [candidate.message, first?.message].find((text): text is string => typeof text === 'string' && text !== '') ?? String(error);
  return { code, message: message.split('\n')[0] ?? message };
}
