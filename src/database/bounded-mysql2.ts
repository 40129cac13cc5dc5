import mysql2 from 'mysql2';
import { DatabaseTimeoutError } from '../common/errors/database-timeout.error.js';
import { databaseTimeLeft } from './database-deadline.js';
import { withGaleraSession } from './galera-session.js';
import type { Pool, PooledConnection } from './mysql2-pool.js';

type QueryCallback = (error: (Error & { code?: string }) | null, ...results: unknown[]) => void;

const BOUNDED = Symbol('bounded');

type Bounded = PooledConnection & { [BOUNDED]?: true };

/** TypeORM's statements that open and end a transaction (a savepoint's ROLLBACK TO ends none). */
const TRANSACTION_START = /^\s*(START\s+TRANSACTION|BEGIN)\b/i;
const TRANSACTION_END = /^\s*(COMMIT|ROLLBACK)\s*$/i;

/** A statement sent and not answered by the deadline, as mysql2 reports one that outlived its own `timeout`. */
const statementTimedOut = () => Object.assign(new Error('Query inactivity timeout'), { code: 'PROTOCOL_SEQUENCE_TIMEOUT' });

/**
 * mysql2 as TypeORM's MySQL driver uses it, with every wait bounded by the database deadline of the
 * caller's scope (`database-deadline.ts`): taking a connection from the pool (mysql2 queues callers
 * without limit and has no acquire timeout) and each statement, prepared ones (`execute`,
 * prepared-statement.ts) included (`untilDeadline`). A
 * statement that timed out leaves its connection in the middle of a command the server may still
 * answer, and one whose transaction was not ended by a confirmed COMMIT or ROLLBACK (its ROLLBACK
 * refused at the deadline) would carry that transaction to the pool's next caller: either connection
 * is destroyed, never returned to the pool; the server rolls back whatever transaction was open on it.
 * Outside any scope only that last rule applies.
 */
export const boundedMysql2: typeof mysql2 = Object.create(mysql2, {
  createPool: {
    // The bound outside: a caller's wait for a connection includes the connection's preparation.
    value: (options: unknown) => boundPool(withGaleraSession((mysql2.createPool as (options: unknown) => unknown)(options) as Pool)),
  },
});

/** Exported for its tests; the driver applies it to every pool it creates. */
export function boundPool<T extends Pool>(pool: T): T {
  const getConnection = pool.getConnection.bind(pool);
  pool.getConnection = (callback) => {
    const timeLeft = databaseTimeLeft();
    if (timeLeft === Infinity) {
      getConnection((error, connection) => callback(error, connection && boundConnection(connection)));
      return;
    }
    if (timeLeft <= 0) {
      process.nextTick(callback, new DatabaseTimeoutError('a pooled database connection'));
      return;
    }
    let waiting = true;
    const timer = setTimeout(() => {
      waiting = false;
      callback(new DatabaseTimeoutError('a pooled database connection'));
    }, Math.ceil(timeLeft));
    getConnection((error, connection) => {
      if (!waiting) {
        // It came too late for the caller who asked; the next one may use it.
        connection?.release();
        return;
      }
      waiting = false;
      clearTimeout(timer);
      callback(error, connection && boundConnection(connection));
    });
  };
  return pool;
}

function boundConnection(connection: Bounded): PooledConnection {
  if (connection[BOUNDED]) return connection;
  connection[BOUNDED] = true;
  // Sent START TRANSACTION, and no COMMIT or ROLLBACK answered since.
  let inTransaction = false;
  const query = connection.query.bind(connection);
  connection.query = (sql: unknown, values?: unknown, callback?: unknown) => {
    const done = (typeof values === 'function' ? values : callback) as QueryCallback | undefined;
    if (!done || !isQueryText(sql)) return query(sql, values, callback);
    const options = typeof sql === 'string' ? { sql } : sql;
    const timeLeft = databaseTimeLeft();
    if (timeLeft <= 0) {
      process.nextTick(done, new DatabaseTimeoutError('a database statement'));
      return undefined;
    }
    if (TRANSACTION_START.test(options.sql)) inTransaction = true;
    const ends = TRANSACTION_END.test(options.sql);
    const bounded = untilDeadline(connection, timeLeft, statementTimedOut, (error, ...results) => {
      if (ends && !error) inTransaction = false;
      done(error, ...results);
    });
    return typeof values === 'function' ? query(sql, bounded) : query(sql, values, bounded);
  };
  // A transaction whose end went unconfirmed (its ROLLBACK refused at the deadline, or answered with an
  // error) must not serve the pool's next caller: its START TRANSACTION or COMMIT would store the
  // abandoned rows too. Closed instead, the connection's transaction is rolled back by the server.
  const release = connection.release.bind(connection);
  connection.release = () => {
    if (!inTransaction) return release();
    inTransaction = false;
    destroy(connection);
  };
  const execute = connection.execute.bind(connection);
  // A prepared statement: mysql2 first prepares it (a round trip, once per connection and text), which
  // the deadline covers too.
  connection.execute = (sql: string, values: unknown[], done: QueryCallback) => {
    const timeLeft = databaseTimeLeft();
    if (timeLeft <= 0) {
      process.nextTick(done, new DatabaseTimeoutError('a database statement'));
      return undefined;
    }
    return execute(
      sql,
      values,
      untilDeadline(connection, timeLeft, () => new DatabaseTimeoutError('a database statement'), done),
    );
  };
  return connection;
}

/**
 * `done`, called once: with the driver's answer, or at the deadline with `timedOut()`, the connection
 * destroyed (the server may still answer on it). The deadline lets the sockets be read first: after an
 * event loop held up past it, Node runs due timers before it reads sockets, and would take a statement
 * whose answer had come in time (a COMMIT applied and confirmed) for one never answered.
 */
function untilDeadline(connection: PooledConnection, timeLeft: number, timedOut: () => Error, done: QueryCallback): QueryCallback {
  if (timeLeft === Infinity) return done;
  let waiting = true;
  const timer = setTimeout(
    () =>
      setImmediate(() => {
        if (!waiting) return;
        waiting = false;
        destroy(connection);
        done(timedOut());
      }),
    Math.ceil(timeLeft),
  );
  return (error, ...results) => {
    if (!waiting) return;
    waiting = false;
    clearTimeout(timer);
    done(error, ...results);
  };
}

/** SQL text or a `{ sql, … }` options object: what TypeORM passes (not a prepared Query command). */
function isQueryText(sql: unknown): sql is string | { sql: string } {
  return typeof sql === 'string' || (typeof sql === 'object' && sql !== null && Object.getPrototypeOf(sql) === Object.prototype);
}

/** Out of the pool and off the wire at once: mysql2's own destroy() only half-closes the socket. */
function destroy(connection: PooledConnection): void {
  connection.destroy();
  connection.stream?.destroy();
}
