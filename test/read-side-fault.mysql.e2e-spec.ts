import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { get as httpGet, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { APP_CONFIG, type AppConfig } from '../src/config/app-config.js';
import { SensorRecordWriter } from '../src/sensor-record/sensor-record-writer.js';
import { sensorRecordRowStub } from './fixtures/sensor-record-row.stub.js';
import { ingestCaller } from './utils/auth-fixtures.js';
import { databaseOutage, type DatabaseOutage } from './utils/database-outage.js';
import { FakeClock } from './utils/fake-clock.js';
import { FEED_URL, pathOf, SENSORS_URL } from './utils/read-side.js';
import { createTestApp, type TestApp } from './utils/test-app.js';
import { until } from './utils/until.js';

const UNAVAILABLE = 'The database is temporarily unavailable; nothing was stored. Please retry.';

/** An answer as the client's socket saw it: `complete` only when the whole message arrived, its last chunk included. */
interface Download {
  status: number;
  retryAfter?: string;
  body: string;
  complete: boolean;
}

/**
 * The read routes while the database goes away (docs/interface.md#csv, #when-the-database-is-away-or-slow):
 * a fault before the first byte is an ordinary 503; one after it cuts the connection, so that no client
 * takes a truncated answer for a whole one; a client that follows `next` and asks again after a failure
 * gets every record once. On SQLite the outage is another connection's write lock, which readers never
 * wait for (WAL), so the suite runs on MySQL only (`npm run test:mysql`), through a proxy that drops the
 * connections.
 */
describe('The read routes while the database goes away and comes back', () => {
  let outage: DatabaseOutage;
  const clock = new FakeClock();
  let testApp: TestApp;
  let token: string;
  let uid: number;
  let port: number;

  const download = (path: string) =>
    new Promise<Download>((resolve, reject) => {
      const call = httpGet({ host: '127.0.0.1', port, path, agent: false, headers: { Authorization: `Bearer ${token}` } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        // 'close' comes after 'end' for a whole answer, and alone for a cut one.
        response.on('close', () =>
          resolve({
            status: response.statusCode!,
            retryAfter: response.headers['retry-after'],
            body: Buffer.concat(chunks).toString('utf8'),
            complete: response.complete,
          }),
        );
        response.on('error', () => undefined);
      });
      call.on('error', reject);
    });

  /** `count` records of the caller, each of its own device, all changed in the same second and settled. */
  const stored = async (count: number) => {
    const changed = new Date(clock.now());
    const nids = await testApp.app.get(SensorRecordWriter).writeTogether(
      Array.from({ length: count }, (_, index) => ({
        ...sensorRecordRowStub,
        uuid: randomUUID(),
        uid,
        revisionUid: uid,
        created: changed,
        changed,
        devId: `trap-${String(index).padStart(5, '0')}`,
      })),
    );
    clock.advance(testApp.app.get<AppConfig>(APP_CONFIG).database.requestTimeoutMs + 2000);
    return [...nids].sort((a, b) => a - b);
  };

  beforeAll(async () => {
    // TypeORM logs every failed query with its parameters; here they are the point of the test.
    jest.spyOn(console, 'log').mockImplementation(() => undefined);
    outage = databaseOutage('cut');
    await outage.prepare();
    testApp = await createTestApp({ override: clock.install });
    await testApp.app.listen(0, '127.0.0.1');
    port = ((testApp.app.getHttpServer() as Server).address() as AddressInfo).port;
  });

  beforeEach(async () => {
    await testApp.reset();
    const caller = await ingestCaller(testApp.app);
    token = caller.accessToken;
    uid = caller.uid;
  });

  afterEach(async () => {
    // A test that failed half-way leaves the database reachable for the next.
    await outage.end();
  });

  afterAll(async () => {
    await testApp?.close();
    await outage?.dispose();
    jest.restoreAllMocks();
  });

  it.each([
    ['the feed as json', `${FEED_URL}?_format=json`],
    ['the feed as a CSV export', `${FEED_URL}?_format=csv`],
    ['the sensors as json', `${SENSORS_URL}?_format=json`],
    ['the sensors as a streamed CSV', `${SENSORS_URL}?_format=csv`],
    ['one sensor', `${SENSORS_URL}/trap-00000`],
  ])('answers %s 503 with Retry-After, before any byte of the answer, while the database is away', async (_, path) => {
    await stored(3);
    expect(await download(path)).toMatchObject({ status: 200, complete: true });

    await outage.begin();
    const during = await download(path);
    await outage.end();
    const after = await download(path);

    expect(during).toEqual({ status: 503, retryAfter: '5', body: JSON.stringify({ message: UNAVAILABLE }), complete: true });
    expect(after).toMatchObject({ status: 200, complete: true });
  });

  it.each([
    // Chunks of 500 records, and of 1000 sensors: the outage falls on the second chunk's read.
    ['the feed as a CSV export', `${FEED_URL}?_format=csv`, 'LIMIT 500', 1203, (body: string) => body.split('\r\n').length - 2],
    [
      'a page of the feed as json',
      `${FEED_URL}?_format=json&limit=1203`,
      'LIMIT 500',
      1203,
      (body: string) => body.split('{"nid"').length - 1,
    ],
    [
      'a page of the feed as xml',
      `${FEED_URL}?_format=xml&limit=1203`,
      'LIMIT 500',
      1203,
      (body: string) => body.split('<records>').length - 1,
    ],
    ['the sensors as a streamed CSV', `${SENSORS_URL}?_format=csv`, 'LIMIT 1000', 1203, (body: string) => body.split('\r\n').length - 2],
  ])('cuts the connection when the database goes away after the first byte of %s', async (_, path, chunkRead, count, items) => {
    await stored(count);
    const whole = await download(path);
    expect(whole).toMatchObject({ status: 200, complete: true });
    expect(items(whole.body)).toBe(count);

    outage.beginBefore(chunkRead, 2);
    const cut = await download(path);

    expect(cut).toMatchObject({ status: 200, complete: false });
    expect(items(cut.body)).toBeGreaterThan(0);
    expect(items(cut.body)).toBeLessThan(count);
  });

  it('lets a client that follows next, and asks again after a failure, get every record once after recovery', async () => {
    const written = await stored(2203);
    const seen: number[] = [];
    const failures: Download[] = [];
    let pages = 0;
    let recovered = false;
    let path = `${FEED_URL}?_format=json&limit=1000`;

    for (;;) {
      // The second page meets the outage after its first chunk, and its retry meets it before its first byte.
      if (pages === 1 && failures.length === 0) outage.beginBefore('LIMIT 500', 2);
      const answer = await download(path);
      if (answer.status !== 200 || !answer.complete) {
        failures.push(answer);
        if (failures.length === 2) void outage.end().then(() => (recovered = true));
        // As a client waits Retry-After: here until the database is back.
        if (failures.length > 1) await until(() => recovered);
        continue;
      }
      const page = JSON.parse(answer.body) as { next: string; more: boolean; records: Array<{ nid: [{ value: number }] }> };
      seen.push(...page.records.map((record) => record.nid[0].value));
      pages++;
      path = pathOf(page.next);
      if (!page.more) break;
    }

    expect(failures.map(({ status, complete, retryAfter }) => ({ status, complete, retryAfter }))).toEqual([
      { status: 200, complete: false, retryAfter: undefined },
      { status: 503, complete: true, retryAfter: '5' },
    ]);
    expect(pages).toBe(3);
    expect(seen).toEqual(written);
  });
});
