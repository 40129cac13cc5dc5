import type { Pool, PooledConnection } from './mysql2-pool.js';

/**
 * `wsrep_sync_wait` for every connection to a Galera node: 1, reads (SELECT, and BEGIN) wait until the
 * node has applied every write set the cluster had committed when they were sent. Without it a record
 * created through an instance on one node could be missing, a moment later, from a read through an
 * instance on another, and a refresh token rotated on one node still look unused on another.
 * Writes do not wait: a conflicting write fails certification at COMMIT and is retried whole
 * (write-conflict.ts). But a conditional write that changes no row replicates nothing and is never
 * certified, so it may have decided on rows this node has not applied yet: work whose answer hangs on
 * such a write checks it against a read after it (the refresh grant, token-grants.service.ts).
 */
export const GALERA_SYNC_WAIT = 1;

/** Statements of the preparation, which runs before any caller's statement and outside its deadline. */
const PREPARE_TIMEOUT_MS = 5000;

const PREPARED = Symbol('galera-session');

type Prepared = PooledConnection & { [PREPARED]?: true };
type QueryCallback = (error: Error | null, rows?: unknown) => void;

/**
 * Prepares each new connection of `pool` before its first use: on a server with wsrep on (a Galera
 * node), sets GALERA_SYNC_WAIT for the session; elsewhere (MySQL, a standalone MariaDB) changes nothing.
 * A connection whose preparation fails is destroyed and its error handed to the caller.
 */
export function withGaleraSession<T extends Pool>(pool: T): T {
  const getConnection = pool.getConnection.bind(pool);
  pool.getConnection = (callback) => {
    getConnection((error, connection?: Prepared) => {
      if (error || !connection || connection[PREPARED]) {
        callback(error, connection);
        return;
      }
      prepare(connection, (preparationError) => {
        if (preparationError) {
          connection.destroy();
          callback(preparationError);
          return;
        }
        connection[PREPARED] = true;
        callback(null, connection);
      });
    });
  };
  return pool;
}

function prepare(connection: PooledConnection, done: (error: Error | null) => void): void {
  const query = (sql: string, then: QueryCallback) => connection.query({ sql, timeout: PREPARE_TIMEOUT_MS }, then);
  query("SHOW VARIABLES LIKE 'wsrep_on'", (error, rows) => {
    if (error) return done(error);
    if (!isOn(rows)) return done(null);
    query(`SET SESSION wsrep_sync_wait = ${GALERA_SYNC_WAIT}`, (setError) => done(setError));
  });
}

function isOn(rows: unknown): boolean {
  const [row] = (Array.isArray(rows) ? rows : []) as Array<{ Value?: unknown }>;
  return String(row?.Value ?? '').toUpperCase() === 'ON';
}
