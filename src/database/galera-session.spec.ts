import type { Pool, PooledConnection } from './mysql2-pool.js';
import { GALERA_SYNC_WAIT, withGaleraSession } from './galera-session.js';

type Callback = (error: Error | null, rows?: unknown) => void;

/** A pool of one connection to a server whose `wsrep_on` is `wsrep` (undefined: a server without the variable, MySQL). */
function fakePool(wsrep: 'ON' | 'OFF' | undefined, failWith?: Error) {
  const statements: string[] = [];
  let destroyed = false;
  const connection: PooledConnection = {
    query(sql: unknown, callback?: unknown) {
      const text = (sql as { sql: string }).sql;
      statements.push(text);
      const done = callback as Callback;
      if (failWith) process.nextTick(done, failWith);
      else if (text.startsWith('SHOW')) process.nextTick(done, null, wsrep ? [{ Variable_name: 'wsrep_on', Value: wsrep }] : []);
      else process.nextTick(done, null, { affectedRows: 0 });
      return undefined;
    },
    execute: () => undefined,
    release: () => undefined,
    destroy: () => {
      destroyed = true;
    },
  };
  const pool: Pool = { getConnection: (callback) => process.nextTick(callback, null, connection) };
  return { pool: withGaleraSession(pool), statements, destroyed: () => destroyed };
}

const take = (pool: Pool) =>
  new Promise<PooledConnection | undefined>((resolve, reject) =>
    pool.getConnection((error, connection) => (error ? reject(error) : resolve(connection))),
  );

describe(withGaleraSession.name, () => {
  it('sets wsrep_sync_wait once for each connection to a Galera node', async () => {
    const { pool, statements } = fakePool('ON');

    await take(pool);
    await take(pool);

    expect(statements).toEqual(["SHOW VARIABLES LIKE 'wsrep_on'", `SET SESSION wsrep_sync_wait = ${GALERA_SYNC_WAIT}`]);
  });

  it('sets nothing on a server with wsrep off, or without it', async () => {
    for (const wsrep of ['OFF', undefined] as const) {
      const { pool, statements } = fakePool(wsrep);

      await take(pool);

      expect(statements).toEqual(["SHOW VARIABLES LIKE 'wsrep_on'"]);
    }
  });

  it('destroys a connection it could not prepare and hands the error to the caller', async () => {
    const failure = Object.assign(new Error('Connection lost'), { code: 'PROTOCOL_CONNECTION_LOST' });
    const { pool, destroyed } = fakePool('ON', failure);

    await expect(take(pool)).rejects.toBe(failure);
    expect(destroyed()).toBe(true);
  });
});
