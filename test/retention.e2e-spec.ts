import request from 'supertest';
import { UsersService } from '../src/auth/users/users.service.js';
import { ClientsService } from '../src/auth/clients/clients.service.js';
import { CliError } from '../src/common/cli/cli-error.js';
import { runCommand, type CliServices } from '../src/cli/commands.js';
import { APP_CONFIG, type AppConfig } from '../src/config/app-config.js';
import { withLeaseIfFree } from '../src/database/lease.js';
import { PURGE_BATCH_SIZE, RecordPurge } from '../src/retention/record-purge.js';
import { RETENTION_LEASE, RetentionService } from '../src/retention/retention.service.js';
import { ingestCaller } from './utils/auth-fixtures.js';
import { testEngine } from './utils/engine.js';
import { FakeClock } from './utils/fake-clock.js';
import { FEED_URL, pathOf, read, report, reportBody, SENSORS_URL } from './utils/read-side.js';
import { submitBatch } from './utils/sensor-record-api.js';
import { createTestApp, type TestApp, UNHURRIED_DATABASE } from './utils/test-app.js';

const DAY_MS = 24 * 60 * 60 * 1000;

interface FeedJson {
  next: string;
  more: boolean;
  records: Array<{ nid: [{ value: number }] }>;
}

/**
 * Retention (docs/operations.md#retention) with RECORD_RETENTION_DAYS=30 and REQUEST_BODY_RETENTION_DAYS=7,
 * on a clock the test moves: records older than 30 days are deleted, the request bodies of records
 * older than 7 days emptied, the feed and the sensors answer as documented across it.
 */
describe(`Retention (${testEngine})`, () => {
  const clock = new FakeClock();
  // Tokens live by the same clock: the owner's token outlasts the months a test moves through.
  const settings = { RECORD_RETENTION_DAYS: '30', REQUEST_BODY_RETENTION_DAYS: '7', ACCESS_TOKEN_TTL: String((100 * DAY_MS) / 1000) };
  const saved = Object.fromEntries(Object.keys(settings).map((name) => [name, process.env[name]]));
  let testApp: TestApp;
  let retention: RetentionService;
  let owner: Awaited<ReturnType<typeof ingestCaller>>;
  let settleMs: number;

  const nids = (page: FeedJson) => page.records.map((record) => record.nid[0].value);
  const feed = async (path: string) =>
    JSON.parse((await read(testApp.app, path, owner.accessToken).expect(200)).body as string) as FeedJson;
  const keptNids = async () =>
    ((await testApp.dataSource.query('SELECT nid FROM sensor_report ORDER BY nid')) as Array<{ nid: number | string }>).map((row) =>
      Number(row.nid),
    );
  const bodyOf = async (nid: number) =>
    ((await testApp.dataSource.query('SELECT request_body FROM sensor_report WHERE nid = ?', [nid])) as Array<{ request_body: string }>)[0]
      ?.request_body;
  const metrics = async () => (await request(testApp.app.getHttpServer()).get('/metrics').expect(200)).text;

  beforeAll(async () => {
    Object.assign(process.env, settings);
    // Batches of 600 reports.
    testApp = await createTestApp({ override: clock.install, env: UNHURRIED_DATABASE });
    retention = testApp.app.get(RetentionService);
    settleMs = testApp.app.get<AppConfig>(APP_CONFIG).database.requestTimeoutMs + 2000;
  });

  beforeEach(async () => {
    await testApp.reset();
    owner = await ingestCaller(testApp.app);
  });

  afterAll(async () => {
    await testApp.close();
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  /** Three records now, one 10 days on, one 30 days on; the clock then 31 days on. */
  async function fiveRecordsOverAMonth(): Promise<[number, number, number, number, number]> {
    const old = [
      await report(testApp.app, owner.accessToken),
      await report(testApp.app, owner.accessToken),
      await report(testApp.app, owner.accessToken),
    ];
    clock.advance(10 * DAY_MS);
    const tenDays = await report(testApp.app, owner.accessToken, { event: 'Sprung', status: 'Sprung' });
    clock.advance(20 * DAY_MS);
    const thirtyDays = await report(testApp.app, owner.accessToken);
    clock.advance(DAY_MS);
    return [old[0]!, old[1]!, old[2]!, tenDays, thirtyDays];
  }

  it('deletes the records older than RECORD_RETENTION_DAYS and empties the request bodies older than REQUEST_BODY_RETENTION_DAYS', async () => {
    const [a, b, c, tenDays, thirtyDays] = await fiveRecordsOverAMonth();
    const rendered = (await read(testApp.app, `/node/${tenDays}?_format=json`, owner.accessToken).expect(200)).body as string;

    const run = await retention.check();

    expect(run).toEqual({ records: 3, requestBodies: 1 });
    expect(await keptNids()).toEqual([tenDays, thirtyDays]);
    expect(await bodyOf(tenDays)).toBe('');
    expect(JSON.parse((await bodyOf(thirtyDays))!)).toEqual(reportBody());
    // The record whose body was emptied answers as before; the deleted ones are gone.
    expect((await read(testApp.app, `/node/${tenDays}?_format=json`, owner.accessToken).expect(200)).body).toBe(rendered);
    for (const nid of [a, b, c]) await read(testApp.app, `/node/${nid}`, owner.accessToken).expect(404);
    // A second check finds nothing more to do.
    expect(await retention.check()).toEqual({ records: 0, requestBodies: 0 });
  });

  it('counts the rows purged and shows the age of the oldest record kept', async () => {
    await fiveRecordsOverAMonth();
    const purged = (text: string, what: string) =>
      Number(new RegExp(`^sensor_records_purged_total\\{what="${what}"\\} (\\d+)$`, 'm').exec(text)?.[1]);
    const before = await metrics();

    await retention.check();

    const text = await metrics();
    expect(purged(text, 'records') - purged(before, 'records')).toBe(3);
    expect(purged(text, 'request_bodies') - purged(before, 'request_bodies')).toBe(1);
    // The oldest record kept is the one of 10 days on: 21 days old.
    expect(text).toMatch(new RegExp(`^sensor_records_oldest_age_seconds ${(21 * DAY_MS) / 1000}$`, 'm'));
  });

  it('never brings a purged record back into the feed, and keeps an emptied record in its place', async () => {
    const [a, b, , tenDays, thirtyDays] = await fiveRecordsOverAMonth();
    clock.advance(settleMs);
    const first = await feed(`${FEED_URL}?_format=json&limit=2`);
    expect(nids(first)).toEqual([a, b]);

    await retention.check();

    const rest = await feed(pathOf(first.next));
    expect(nids(rest)).toEqual([tenDays, thirtyDays]);
    expect(nids(await feed(`${FEED_URL}?_format=json`))).toEqual([tenDays, thirtyDays]);
    // Nothing comes after the last page: emptying a body did not move its record to the feed's end.
    const last = await feed(pathOf(rest.next));
    expect(nids(last)).toEqual([]);
  });

  it('leaves the sensor as it was: report_count counts every report received, purged ones included', async () => {
    const [, , , , thirtyDays] = await fiveRecordsOverAMonth();
    const sensor = async () =>
      (
        JSON.parse((await read(testApp.app, `${SENSORS_URL}/trap-1?_format=json`, owner.accessToken).expect(200)).body as string) as {
          sensor: Record<string, unknown>;
        }
      ).sensor;
    const before = await sensor();

    await retention.check();

    const after = await sensor();
    expect(after).toEqual(before);
    // first_received is the first report's, deleted now; sprung still comes from the kept Sprung report.
    expect(after).toMatchObject({ report_count: 5, last_nid: thirtyDays, sprung: true, first_received: before.first_received });
  });

  it('purges in batches of 500, each its own transaction', async () => {
    const reports = Array.from({ length: 600 }, () => reportBody());
    for (let i = 0; i < 2; i++) await submitBatch(testApp.app, reports, { token: owner.accessToken }).expect(201);
    clock.advance(31 * DAY_MS);
    const batches: number[] = [];

    const deleted = await new RecordPurge(testApp.dataSource).deleteRecords(new Date(clock.now() - 30 * DAY_MS), {
      onBatch: (rows) => batches.push(rows),
    });

    expect(PURGE_BATCH_SIZE).toBe(500);
    expect(batches).toEqual([500, 500, 200]);
    expect(deleted).toBe(1200);
    expect(await keptNids()).toEqual([]);
  });

  it('does nothing on an instance while another holds the lease', async () => {
    await fiveRecordsOverAMonth();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    const other = withLeaseIfFree(testApp.dataSource, RETENTION_LEASE, () => (holding(), released));
    await held;

    const run = await retention.check();

    release();
    await other;
    expect(run).toEqual({ records: null, requestBodies: null });
    expect(await keptNids()).toHaveLength(5);
  });

  describe('records:purge', () => {
    let services: CliServices;

    beforeAll(() => {
      services = {
        users: testApp.app.get(UsersService),
        clients: testApp.app.get(ClientsService),
        records: { dataSource: testApp.dataSource, clock },
      };
    });

    it('with --dry-run says how many records it would delete and deletes none', async () => {
      await fiveRecordsOverAMonth();
      // Midnight of 16 days on: the three records of day 0 and the one of 10 days on.
      const before = new Date(clock.now() - 15 * DAY_MS).toISOString().slice(0, 10);

      const printed = await runCommand(['records:purge', '--before', before, '--dry-run'], services);

      expect(printed).toEqual({ before: `${before}T00:00:00Z`, dry_run: true, records: 4 });
      expect(await keptNids()).toHaveLength(5);
    });

    it('deletes the records received before the instant and says how many', async () => {
      const [, , , , thirtyDays] = await fiveRecordsOverAMonth();
      const before = new Date(clock.now() - 2 * DAY_MS).toISOString().replace(/\.\d{3}Z$/, 'Z');

      const printed = await runCommand(['records:purge', '--before', before], services);

      expect(printed).toEqual({ before, dry_run: false, records: 4 });
      expect(await keptNids()).toEqual([thirtyDays]);
    });

    it.each([
      ['2026-02-30', /--before must be a date/],
      ['yesterday', /--before must be a date/],
      ['2026-01-01T00:00:00', /--before must be a date/],
    ])('refuses --before %s', async (given, message) => {
      await expect(runCommand(['records:purge', '--before', given], services)).rejects.toThrow(message);
    });

    it('refuses a date in the future and a missing --before', async () => {
      const tomorrow = new Date(clock.now() + DAY_MS).toISOString().slice(0, 10);
      await expect(runCommand(['records:purge', '--before', tomorrow], services)).rejects.toThrow(/must not be in the future/);
      await expect(runCommand(['records:purge'], services)).rejects.toThrow(new CliError('Missing required option --before.'));
    });
  });
});
