import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { isDatabaseUnavailable } from '../common/errors/database-unavailable.js';
import { buildDataSourceOptions } from './data-source-options.js';
import { withDatabaseDeadline } from './database-deadline.js';
import { initializeDataSource } from './initialize-data-source.js';
import { runInTransaction } from './run-in-transaction.js';
import { until } from '../../test/utils/until.js';

const insertType = (type: string) => (manager: { query(sql: string, parameters: unknown[]): Promise<unknown> }) =>
  manager.query('INSERT INTO node_type (type, uuid, name) VALUES (?, ?, ?)', [type, `${type}-uuid`, type]);

describe('runInTransaction on a SQLite file another connection has locked', () => {
  let directory: string;
  let dataSource: DataSource;
  let blocker: DataSource;

  const types = async () =>
    ((await dataSource.query('SELECT type FROM node_type ORDER BY type')) as Array<{ type: string }>).map((row) => row.type);

  beforeEach(async () => {
    directory = mkdtempSync(join(tmpdir(), 'run-in-transaction-'));
    const path = join(directory, 'records.sqlite');
    dataSource = await initializeDataSource({
      ...buildDataSourceOptions({ type: 'sqlite', path, migrationsRun: true, requestTimeoutMs: 3000 }),
      logging: false,
    });
    blocker = await new DataSource({ type: 'better-sqlite3', database: path }).initialize();
    await blocker.query('BEGIN EXCLUSIVE');
  });

  afterEach(async () => {
    if (blocker.isInitialized) await blocker.destroy();
    await dataSource.destroy();
    rmSync(directory, { recursive: true, force: true });
  });

  it('gives up at the deadline with an answer of "unavailable"', async () => {
    const error = await withDatabaseDeadline(Date.now() + 300, () => runInTransaction(dataSource, insertType('blocked'))).then(
      () => undefined,
      (reason: unknown) => reason,
    );

    expect(isDatabaseUnavailable(error)).toBe(true);
    await blocker.query('ROLLBACK');
    expect(await types()).not.toContain('blocked');
  });

  it('keeps the process responsive while it waits, tries again until the lock is released, then writes', async () => {
    // Timers keep running while the attempt is still waiting: a synchronous wait for the lock would
    // hold the event loop until the deadline, so neither the ticks nor the release below could happen.
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 10);
    let tries = 0;
    let settled = false;
    const attempt = withDatabaseDeadline(Date.now() + 60_000, () =>
      runInTransaction(dataSource, async (manager) => {
        tries++;
        await insertType('waited')(manager);
      }),
    ).finally(() => {
      settled = true;
    });
    try {
      await until(() => tries >= 2 && ticks >= 3);
      expect(settled).toBe(false);
    } finally {
      clearInterval(ticker);
    }
    await blocker.query('ROLLBACK');

    await attempt;

    expect(await types()).toEqual(['sensor_report', 'waited']);
  });

  it('refuses a transaction whose deadline passed while it queued, without running it', async () => {
    await blocker.query('ROLLBACK');
    let ran = false;

    const late = withDatabaseDeadline(Date.now() - 1, () =>
      runInTransaction(dataSource, async (manager) => {
        ran = true;
        await insertType('late')(manager);
      }),
    );

    await expect(late).rejects.toMatchObject({ code: 'DATABASE_WAIT_TIMEOUT' });
    expect(ran).toBe(false);
  });
});
