import { EventEmitter } from 'node:events';
import { jest } from '@jest/globals';
import { boundPool } from './bounded-mysql2.js';
import type { PooledConnection } from './mysql2-pool.js';
import { withDatabaseDeadline } from './database-deadline.js';

type Callback = (error: (Error & { code?: string }) | null, result?: unknown) => void;

/** A mysql2 pool connection as the wrapper sees it: `query` records what it was asked and answers on demand. */
class FakeConnection {
  readonly asked: Array<{ sql: unknown; values: unknown; answer: Callback }> = [];
  released = 0;
  destroyed = 0;
  readonly stream = Object.assign(new EventEmitter(), { destroyed: false, destroy: () => void (this.stream.destroyed = true) });

  query(sql: unknown, values: unknown, answer?: unknown): void {
    this.asked.push({ sql, values, answer: (typeof values === 'function' ? values : answer) as Callback });
  }

  /** A prepared statement: recorded like a query, answered on demand. */
  execute(sql: string, values: unknown[], answer: Callback): void {
    this.asked.push({ sql, values, answer });
  }

  release(): void {
    this.released++;
  }

  destroy(): void {
    this.destroyed++;
  }
}

/** A pool that hands out connections only when the test says so. */
class FakePool {
  readonly waiting: Array<(error: Error | null, connection?: PooledConnection) => void> = [];

  getConnection(callback: (error: Error | null, connection?: PooledConnection) => void): void {
    this.waiting.push(callback);
  }
}

const acquire = (pool: FakePool) =>
  new Promise<{ error: Error | null; connection?: PooledConnection }>((resolve) =>
    pool.getConnection((error, connection) => resolve({ error, connection })),
  );

const ask = (connection: PooledConnection, sql: string) =>
  new Promise<{ error: (Error & { code?: string }) | null; result?: unknown }>((resolve) =>
    connection.query(sql, [], (error: (Error & { code?: string }) | null, result?: unknown) => resolve({ error, result })),
  );

/** A connection the bounded pool handed out: `handed` as the service sees it, `connection` the driver's underneath. */
async function pooledConnection(): Promise<{ connection: FakeConnection; handed: PooledConnection }> {
  const pool = boundPool(new FakePool());
  const connection = new FakeConnection();
  const acquired = acquire(pool);
  pool.waiting[0]!(null, connection as unknown as PooledConnection);
  return { connection, handed: (await acquired).connection! };
}

describe('boundPool', () => {
  afterEach(() => jest.useRealTimers());

  it('changes nothing outside a database deadline', async () => {
    const { connection, handed } = await pooledConnection();

    const answered = ask(handed, 'SELECT 1');
    connection.asked[0]!.answer(null, [{ 1: 1 }]);

    expect(await answered).toEqual({ error: null, result: [{ 1: 1 }] });
    expect(connection.asked[0]!.sql).toBe('SELECT 1');
  });

  it('gives up waiting for a pooled connection at the deadline, and hands one that comes later back to the pool', async () => {
    // The clock stands still until the test moves it, so the wait is queued however busy the machine is.
    jest.useFakeTimers();
    const pool = boundPool(new FakePool());
    const connection = new FakeConnection();

    const outcome = withDatabaseDeadline(Date.now() + 20, () => acquire(pool));
    expect(pool.waiting).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(20);
    const { error } = await outcome;
    pool.waiting[0]!(null, connection as unknown as PooledConnection);

    expect(error).toMatchObject({ code: 'DATABASE_WAIT_TIMEOUT' });
    expect(connection.released).toBe(1);
  });

  it('gives up a statement unanswered at the deadline and destroys its connection', async () => {
    // Timers stand still until the test moves them; the loop's own turns (setImmediate) run as usual.
    jest.useFakeTimers({ doNotFake: ['setImmediate'] });
    const { connection, handed } = await pooledConnection();

    const answered = withDatabaseDeadline(Date.now() + 20, () => ask(handed, 'COMMIT'));
    jest.advanceTimersByTime(20);
    const { error } = await answered;
    // The driver's own answer, coming after the deadline, reaches nobody.
    connection.asked[0]!.answer(null, {});

    expect(connection.asked[0]!.sql).toBe('COMMIT');
    expect(error).toMatchObject({ code: 'PROTOCOL_SEQUENCE_TIMEOUT' });
    expect(connection.destroyed).toBe(1);
    expect(connection.stream.destroyed).toBe(true);
    expect(connection.released).toBe(0);
  });

  it("takes an answer read in the event loop's turn that reached the deadline, as a confirmed COMMIT", async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate'] });
    const { connection, handed } = await pooledConnection();

    const answered = withDatabaseDeadline(Date.now() + 20, () => ask(handed, 'COMMIT'));
    // A loop held up past the deadline: Node runs the due timer first, then reads the answer waiting on the socket.
    jest.advanceTimersByTime(20);
    connection.asked[0]!.answer(null, { affectedRows: 0 });

    expect(await answered).toEqual({ error: null, result: { affectedRows: 0 } });
    expect(connection.destroyed).toBe(0);
  });

  it('keeps a connection whose statement failed for another reason', async () => {
    const { connection, answered } = await withDatabaseDeadline(Date.now() + 60_000, async () => {
      const { connection, handed } = await pooledConnection();
      return { connection, answered: { pending: ask(handed, 'INSERT …') } };
    });
    connection.asked[0]!.answer(Object.assign(new Error('Duplicate entry'), { code: 'ER_DUP_ENTRY' }));

    expect((await answered.pending).error).toMatchObject({ code: 'ER_DUP_ENTRY' });
    expect(connection.destroyed).toBe(0);
  });

  it('gives up a prepared statement (its preparation included) at the deadline and destroys its connection', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate'] });
    const { connection, handed } = await pooledConnection();

    const answered = withDatabaseDeadline(
      Date.now() + 20,
      () =>
        new Promise<{ error: (Error & { code?: string }) | null }>((resolve) =>
          handed.execute('INSERT INTO t (a) VALUES (?)', [1], (error) => resolve({ error })),
        ),
    );
    expect(connection.asked[0]!.sql).toBe('INSERT INTO t (a) VALUES (?)');
    jest.advanceTimersByTime(20);
    const { error } = await answered;
    // The driver's own answer, coming after the deadline, reaches nobody.
    connection.asked[0]!.answer(null, { affectedRows: 1 });

    expect(error).toMatchObject({ code: 'DATABASE_WAIT_TIMEOUT' });
    expect(connection.destroyed).toBe(1);
    expect(connection.stream.destroyed).toBe(true);
    expect(connection.released).toBe(0);
  });

  it('answers a prepared statement as the driver does before the deadline', async () => {
    const { connection, handed } = await pooledConnection();

    const answered = withDatabaseDeadline(
      Date.now() + 60_000,
      () =>
        new Promise<{ error: unknown; result: unknown }>((resolve) =>
          handed.execute('INSERT INTO t (a) VALUES (?)', [1], (error, result) => resolve({ error, result })),
        ),
    );
    connection.asked[0]!.answer(null, { affectedRows: 1 });

    expect(await answered).toEqual({ error: null, result: { affectedRows: 1 } });
    expect(connection.destroyed).toBe(0);
  });

  it('refuses a statement at once when the deadline has passed', async () => {
    const { connection, handed } = await pooledConnection();

    const { error } = await withDatabaseDeadline(Date.now() - 1, () => ask(handed, 'SELECT 1'));

    expect(error).toMatchObject({ code: 'DATABASE_WAIT_TIMEOUT' });
    expect(connection.asked).toHaveLength(0);
  });

  it('closes, rather than pools, a connection whose ROLLBACK was refused at the deadline', async () => {
    const { connection, handed } = await pooledConnection();

    const started = ask(handed, 'START TRANSACTION');
    connection.asked[0]!.answer(null, {});
    await started;
    const { error } = await withDatabaseDeadline(Date.now() - 1, () => ask(handed, 'ROLLBACK'));
    handed.release();

    expect(error).toMatchObject({ code: 'DATABASE_WAIT_TIMEOUT' });
    expect({ released: connection.released, destroyed: connection.destroyed, stream: connection.stream.destroyed }).toEqual({
      released: 0,
      destroyed: 1,
      stream: true,
    });
  });

  it.each([['COMMIT'], ['ROLLBACK']])('pools a connection once its %s is answered', async (end) => {
    const { connection, handed } = await pooledConnection();

    for (const sql of ['START TRANSACTION', end]) {
      const answered = ask(handed, sql);
      connection.asked.at(-1)!.answer(null, {});
      await answered;
    }
    handed.release();

    expect({ released: connection.released, destroyed: connection.destroyed }).toEqual({ released: 1, destroyed: 0 });
  });
});
