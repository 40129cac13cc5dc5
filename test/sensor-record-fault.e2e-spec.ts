import { jest } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { reportFrom, sensorReportStub } from './fixtures/sensor-report.stub.js';
import { ingestCaller } from './utils/auth-fixtures.js';
import { storedRows, submit } from './utils/sensor-record-api.js';
import { TcpProxy } from './utils/tcp-proxy.js';
import { createTestApp, type TestApp } from './utils/test-app.js';

/** How the database is made unavailable and brought back, for the engine DATABASE_URL names. */
interface Outage {
  /** Points DATABASE_URL at a database this outage controls. */
  prepare(): Promise<void>;
  afterStart(testApp: TestApp): Promise<void>;
  begin(): Promise<void>;
  end(): Promise<void>;
  dispose(): Promise<void>;
}

/** MySQL: the application reaches the shared server through a proxy that the test cuts. */
function proxyOutage(databaseUrl: string): Outage {
  const url = new URL(databaseUrl);
  const proxy = new TcpProxy(url.hostname, Number(url.port || 3306));
  return {
    async prepare() {
      url.hostname = '127.0.0.1';
      url.port = String(await proxy.start());
      process.env.DATABASE_URL = url.toString();
    },
    afterStart: async () => undefined,
    begin: () => proxy.cut(),
    end: async () => void (await proxy.start()),
    dispose: () => proxy.stop(),
  };
}

/** SQLite: a second connection holds the file's write lock, so every write fails with SQLITE_BUSY. */
function lockOutage(): Outage {
  const directory = mkdtempSync(join(tmpdir(), 'sensor-record-fault-'));
  const path = join(directory, 'records.sqlite');
  let blocker: DataSource | undefined;
  return {
    async prepare() {
      process.env.DATABASE_URL = `sqlite:${path}`;
    },
    // Keeps each refused write short; the application default waits 5 seconds for the lock.
    afterStart: async (testApp) => void (await testApp.dataSource.query('PRAGMA busy_timeout = 20')),
    async begin() {
      blocker = await new DataSource({ type: 'better-sqlite3', database: path }).initialize();
      await blocker.query('BEGIN EXCLUSIVE');
    },
    async end() {
      await blocker?.query('ROLLBACK');
      await blocker?.destroy();
      blocker = undefined;
    },
    async dispose() {
      if (blocker?.isInitialized) await blocker.destroy();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

describe('POST /api-sensor/iot/sensor-record while the database goes away and comes back', () => {
  const originalUrl = process.env.DATABASE_URL ?? 'sqlite::memory:';
  const outage = originalUrl.startsWith('mysql://') ? proxyOutage(originalUrl) : lockOutage();
  let testApp: TestApp;
  let token: string;

  const post = () => submit(testApp.app, reportFrom(sensorReportStub.trapSprung), { token, format: 'json' });

  beforeAll(async () => {
    // TypeORM logs every failed query with its parameters; here they are the point of the test.
    jest.spyOn(console, 'log').mockImplementation(() => undefined);
    await outage.prepare();
    testApp = await createTestApp();
    await outage.afterStart(testApp);
    await testApp.reset();
    token = (await ingestCaller(testApp.app)).accessToken;
  });

  afterAll(async () => {
    await testApp?.close();
    await outage.dispose();
    process.env.DATABASE_URL = originalUrl;
    jest.restoreAllMocks();
  });

  it('answers 201 only for stored rows and 503 otherwise, and recovers without a restart', async () => {
    const answers: Array<{ status: number; body: Record<string, unknown>; retryAfter?: string }> = [];
    const stream = async (count: number) => {
      // Four devices submitting at once, so requests are in flight when the database goes.
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          for (let index = 0; index < count / 4; index++) {
            const response = await post();
            answers.push({ status: response.status, body: response.body, retryAfter: response.headers['retry-after'] });
          }
        }),
      );
    };

    const before = stream(40);
    await new Promise((resolve) => setTimeout(resolve, 30));
    await outage.begin();
    await before;
    await stream(20);
    await outage.end();
    await stream(20);

    const created = answers.filter((answer) => answer.status === 201);
    const refused = answers.filter((answer) => answer.status !== 201);
    expect(refused.length).toBeGreaterThan(0);
    for (const answer of refused) {
      expect(answer).toEqual({
        status: 503,
        body: { message: 'The database is temporarily unavailable; nothing was stored. Please retry.' },
        retryAfter: '5',
      });
    }
    // Recovered: the last stream, after the database came back, was stored in full.
    expect(answers.slice(-20).every((answer) => answer.status === 201)).toBe(true);

    const rows = await storedRows(testApp.dataSource);
    const rowsByNid = new Map(rows.map((row) => [row.nid, row]));
    for (const answer of created) {
      const nid = (answer.body.nid as Array<{ value: number }>)[0].value;
      expect(rowsByNid.get(nid)).toMatchObject({ uuid: (answer.body.uuid as Array<{ value: string }>)[0].value, vid: nid });
    }
    // No half-written record; a row beyond the 201s can only be one whose commit succeeded as the connection dropped.
    expect(rows.every((row) => row.vid === row.nid && row.field_sensor_id === '0004A30B001C1234')).toBe(true);
    expect(rows.length - created.length).toBeLessThanOrEqual(refused.length);
    expect(rows.length).toBeGreaterThanOrEqual(created.length);
  });
});
