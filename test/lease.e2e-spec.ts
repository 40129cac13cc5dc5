import type { DataSource } from 'typeorm';
import { loadConfig } from '../src/config/app-config.js';
import { buildDataSourceOptions } from '../src/database/data-source-options.js';
import { quietDatabaseLogger } from '../src/database/database-logger.js';
import { initializeDataSource } from '../src/database/initialize-data-source.js';
import { LeaseTimeoutError, withLease, withLeaseIfFree } from '../src/database/lease.js';
import { testEngine } from './utils/engine.js';

/** A promise and the function that settles it: work that runs until the test lets it finish. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/**
 * Named leases (src/database/lease.ts): the one instance of several that does a piece of work. Two
 * holders in one process stand for two instances: each take is a row of its own holder id, as from
 * another process. The Galera suite (lease.galera.e2e-spec.ts) has them on three nodes.
 */
describe(`A named lease (${testEngine})`, () => {
  let dataSource: DataSource;
  const name = `test-lease-${process.pid}`;

  beforeAll(async () => {
    dataSource = await initializeDataSource({ ...buildDataSourceOptions(loadConfig().database), logger: quietDatabaseLogger });
    // The first take makes the table (on SQLite nothing has made it before).
    await withLeaseIfFree(dataSource, name, async () => undefined);
  });

  afterAll(async () => {
    await dataSource.destroy();
  });

  it('is held by one holder at a time: a second asks, is told it is held, and runs nothing', async () => {
    const first = gate();
    const holding = withLeaseIfFree(dataSource, name, () => first.opened.then(() => 'first'));
    let ranSecond = false;
    // The first take has committed once its row is there.
    while ((await rows()).length === 0) await new Promise((resolve) => setTimeout(resolve, 5));

    const second = await withLeaseIfFree(dataSource, name, async () => (ranSecond = true));

    expect(second).toEqual({ held: false });
    expect(ranSecond).toBe(false);
    first.open();
    expect(await holding).toEqual({ held: true, value: 'first' });
  });

  it('is free again once the work ends, whether it succeeded or failed', async () => {
    await withLeaseIfFree(dataSource, name, async () => 'done');
    await expect(withLeaseIfFree(dataSource, name, () => Promise.reject(new Error('the work failed')))).rejects.toThrow('the work failed');

    expect(await rows()).toEqual([]);
    expect(await withLeaseIfFree(dataSource, name, async () => 'again')).toEqual({ held: true, value: 'again' });
  });

  it('is taken over from a holder whose claim has run out (it died), but not from one whose claim runs', async () => {
    await insertRow('a-process-that-died', -1);
    expect(await withLeaseIfFree(dataSource, name, async () => 'taken over')).toEqual({ held: true, value: 'taken over' });

    await insertRow('a-process-alive', 60);
    expect(await withLeaseIfFree(dataSource, name, async () => 'taken')).toEqual({ held: false });
    await dataSource.query('DELETE FROM leases WHERE name = ?', [name]);
  });

  it('withLease waits for the holder to finish, then runs; with no time to wait it gives up at once', async () => {
    const first = gate();
    const order: string[] = [];
    const holding = withLeaseIfFree(dataSource, name, async () => {
      await first.opened;
      order.push('first');
    });
    while ((await rows()).length === 0) await new Promise((resolve) => setTimeout(resolve, 5));

    await expect(withLease(dataSource, name, 0, async () => order.push('impatient'))).rejects.toBeInstanceOf(LeaseTimeoutError);
    const waiting = withLease(dataSource, name, 600, async () => order.push('second'));
    first.open();
    await holding;
    await waiting;

    expect(order).toEqual(['first', 'second']);
  });

  it("aborts the holder's signal when a renewal finds its row taken over", async () => {
    const aborted = await withLeaseIfFree(
      dataSource,
      name,
      async (lease) => {
        await dataSource.query("UPDATE leases SET holder = 'another-process' WHERE name = ?", [name]);
        await new Promise((resolve) => lease.signal.addEventListener('abort', resolve, { once: true }));
        return lease.signal.aborted;
      },
      20,
    );

    expect(aborted).toEqual({ held: true, value: true });
    // Not the lease's to remove: the row of the process that took it over stays.
    expect(await rows()).toEqual([{ holder: 'another-process' }]);
    await dataSource.query('DELETE FROM leases WHERE name = ?', [name]);
  });

  const rows = () => dataSource.query('SELECT holder FROM leases WHERE name = ?', [name]) as Promise<Array<{ holder: string }>>;

  function insertRow(holder: string, secondsLeft: number): Promise<unknown> {
    const expires =
      testEngine === 'mysql' ? 'UTC_TIMESTAMP() + INTERVAL ? SECOND' : "strftime('%Y-%m-%d %H:%M:%f', 'now', ? || ' seconds')";
    return dataSource.query(`INSERT INTO leases (name, holder, expires_at) VALUES (?, ?, ${expires})`, [name, holder, secondsLeft]);
  }
});
