import { CreateSensors1764000100000 } from '../src/database/migrations/1764000100000-CreateSensors.js';
import { migrations } from '../src/database/migrations/index.js';
import { ingestCaller } from './utils/auth-fixtures.js';
import { FakeClock } from './utils/fake-clock.js';
import { report, type Report } from './utils/read-side.js';
import { createTestApp, type TestApp } from './utils/test-app.js';

/**
 * The sensor table two ways: kept by the writer as records arrive (late ones, ties, several of one
 * device in one batch), and filled from the stored records by the migration. Both must give the same
 * rows (docs/interface.md#sensors), to the stored text.
 */
describe('Migration CreateSensors1764000100000', () => {
  const clock = new FakeClock();
  let testApp: TestApp;

  const sensorRows = async () => {
    const rows = (await testApp.dataSource.query('SELECT * FROM sensor ORDER BY uid, dev_id')) as Array<Record<string, unknown>>;
    return rows.map((row) =>
      Object.fromEntries(Object.entries(row).map(([column, value]) => [column, value instanceof Date ? value.toISOString() : value])),
    );
  };

  beforeAll(async () => {
    testApp = await createTestApp({ override: clock.install });
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('fills the table from the records exactly as the writer keeps it', async () => {
    await testApp.reset();
    const [one, two] = [await ingestCaller(testApp.app), await ingestCaller(testApp.app)];
    const day = (hour: number) => `2026-03-01T${String(hour).padStart(2, '0')}:00:00Z`;
    // The n-th report (from 0) is received 7n s after the first; `received(n, ahead)` is a device time that many seconds ahead of it.
    const received = (n: number, ahead = 0) => new Date(clock.now() + (7 * n + ahead) * 1000).toISOString();
    const sequence: Array<[typeof one, Report]> = [
      [one, { dev_id: 'trap-a', time: day(5), event: 'Sprung', status: 'Sprung', timeout: 3600, voltage: 3.3 }],
      [one, { dev_id: 'trap-a', time: day(3), event: 'Set', status: 'Set', timeout: -1 }],
      [one, { dev_id: 'trap-a', time: day(5), event: 'Heartbeat', timeout: 60 }],
      [one, { dev_id: 'trap-b', time: day(1), event: 'Sprung', timeout: 0 }],
      [one, { dev_id: 'trap-c', time: day(2), event: 'Vibration' }],
      [two, { dev_id: 'trap-a', time: day(4), event: 'Set', status: 'Set', voltage: '3.75' }],
      // A device clock a year ahead: placed at its receipt, so the Set after it is the last record.
      [one, { dev_id: 'trap-e', time: received(6, 365 * 24 * 3600), event: 'Sprung', status: 'Sprung', voltage: 3.2 }],
      [one, { dev_id: 'trap-e', time: received(7), event: 'Set', status: 'Set' }],
      // A device clock 200 s ahead: placed by its own time, so the Set after it is late.
      [two, { dev_id: 'trap-f', time: received(8, 200), event: 'Sprung', voltage: 3.1 }],
      [two, { dev_id: 'trap-f', time: received(9), event: 'Set' }],
    ];
    for (const [caller, readings] of sequence) {
      await report(testApp.app, caller.accessToken, readings);
      clock.advance(7000);
    }
    // Several reports of one device in one batch, out of order.
    await Promise.all(
      [9, 6, 8, 7, 9].map((hour, index) =>
        report(testApp.app, two.accessToken, {
          dev_id: 'trap-d',
          time: day(hour),
          event: index % 2 ? 'Sprung' : 'Set',
          timeout: 100 * hour,
        }),
      ),
    );
    const kept = await sensorRows();
    expect(kept).toHaveLength(7);
    // The writer's rule (a year ahead placed at receipt, 200 s ahead by the device), which the migration must match.
    expect(kept.map((row) => [row.dev_id, Number(row.sprung)])).toEqual(
      expect.arrayContaining([
        ['trap-e', 0],
        ['trap-f', 1],
      ]),
    );

    // Taken back to before CreateSensors and forward again, so that the migrations after it (which
    // change its table) apply as they did, and later suites find the schema as it was.
    const runner = testApp.dataSource.createQueryRunner();
    const later = migrations.slice(migrations.indexOf(CreateSensors1764000100000) + 1).map((Migration) => new Migration());
    try {
      const migration = new CreateSensors1764000100000();
      for (const next of [...later].reverse()) await next.down(runner);
      await migration.down(runner);
      await migration.up(runner);
      for (const next of later) await next.up(runner);
    } finally {
      await runner.release();
    }

    expect(await sensorRows()).toEqual(kept);
  });
});
