import { jest } from '@jest/globals';
import request from 'supertest';
import { submissionFrom, submissionStub } from './fixtures/submission.stub.js';
import { APP_CONFIG, type AppConfig } from '../src/config/app-config.js';
import { createClient, createUser, ingestCaller, TOKEN_PATH } from './utils/auth-fixtures.js';
import { databaseOutage } from './utils/database-outage.js';
import { storedRows, submit } from './utils/sensor-record-api.js';
import { countWrites } from './utils/count-writes.js';
import { MachineLateness } from './utils/machine-lateness.js';
import { createTestApp, type TestApp } from './utils/test-app.js';
import { until } from './utils/until.js';

const UNAVAILABLE = 'The database is temporarily unavailable; nothing was stored. Please retry.';
const UNCONFIRMED = 'The database did not confirm the record in time: it may have been stored. A retry may store it twice.';

interface Answer {
  devId: string;
  /** Sent after the stall began (and answered before it ended: the stall lasts until every such answer is in). */
  duringStall: boolean;
  status: number;
  message?: string;
  retryAfter?: string;
  /** From sending the request to its answer, less the time the machine left the process without a core. */
  waitedMs: number;
}

/**
 * How much later than the database deadline an answer may come: the work a request does before its
 * first database call and after its deadline passes (validation, rollback, the answer). What a loaded
 * machine adds is measured and taken off (MachineLateness). It keeps an answer well inside the 5 s
 * after which a network server gives up.
 */
const ANSWER_MARGIN_MS = 1500;

/**
 * The database stops answering without closing anything (MySQL: a proxy that holds every byte back;
 * SQLite: another connection holding the file's write lock). The stall lasts until every request sent
 * during it has been answered, so a request that waited on the database without bound would keep the
 * test from finishing; each answer to a request sent during the stall must also come within the request's
 * database deadline (DB_REQUEST_TIMEOUT_MS) and a margin, not when the stall ends.
 */
describe('Requests while the database stalls', () => {
  const saved = { ...process.env };
  const outage = databaseOutage('stall');
  let testApp: TestApp;
  let token: string;
  let writes: () => number;
  let sequence = 0;
  const lateness = new MachineLateness();

  beforeAll(async () => {
    // TypeORM logs every failed query with its parameters; here they are the point of the test.
    jest.spyOn(console, 'log').mockImplementation(() => undefined);
    await outage.prepare();
    testApp = await createTestApp();
    await testApp.reset();
    token = (await ingestCaller(testApp.app)).accessToken;
    writes = countWrites(testApp.app);
  });

  afterAll(async () => {
    await testApp?.close();
    await outage.dispose();
    await lateness.stop();
    process.env = { ...saved };
    jest.restoreAllMocks();
  });

  const post = async (duringStall: () => boolean): Promise<Answer> => {
    const devId = `stall-${++sequence}`;
    const sentDuringStall = duringStall();
    const sentAt = performance.now();
    const lateBefore = lateness.now();
    const response = await submit(testApp.app, { ...submissionFrom(submissionStub.trapSprung), dev_id: devId }, { token, format: 'json' });
    return {
      devId,
      duringStall: sentDuringStall,
      status: response.status,
      message: response.body?.message,
      retryAfter: response.headers['retry-after'],
      waitedMs: performance.now() - sentAt - (lateness.now() - lateBefore),
    };
  };

  it('answers every submission 201 (stored) or 503 (not stored, unless the COMMIT went unconfirmed) within its database deadline, and recovers', async () => {
    const deadlineMs = testApp.app.get<AppConfig>(APP_CONFIG).database.requestTimeoutMs;
    let stalled = false;
    const answers: Answer[] = [];
    // Four devices submitting one report after another, each until it has two answers to reports sent during the stall.
    const devices = Array.from({ length: 4 }, async () => {
      let answeredDuringStall = 0;
      while (answeredDuringStall < 2) {
        const answer = await post(() => stalled);
        answers.push(answer);
        if (answer.duringStall) answeredDuringStall++;
      }
    });
    await until(() => writes() >= 8);

    await outage.begin();
    stalled = true;
    await Promise.all(devices);
    await outage.end();
    stalled = false;
    const after = await Promise.all(Array.from({ length: 8 }, () => post(() => false)));

    const rows = await storedRows(testApp.dataSource);
    const stored = new Map<unknown, number>();
    for (const row of rows) stored.set(row.field_sensor_id, (stored.get(row.field_sensor_id) ?? 0) + 1);
    const duringStall = answers.filter((answer) => answer.duringStall);
    expect(duringStall.length).toBeGreaterThanOrEqual(8);
    for (const answer of duringStall) {
      expect(answer).toEqual({ ...answer, status: 503, message: UNAVAILABLE, retryAfter: '5' });
      expect(answer.waitedMs).toBeLessThan(deadlineMs + ANSWER_MARGIN_MS);
    }
    for (const answer of answers) {
      if (answer.status === 201) expect(stored.get(answer.devId)).toBe(1);
      // SQLite commits in-process, so there no COMMIT goes unconfirmed: every 503 stored nothing.
      else if (answer.message === UNCONFIRMED && outage.engine === 'mysql') expect(stored.get(answer.devId) ?? 0).toBeLessThanOrEqual(1);
      else {
        expect(answer).toEqual({ ...answer, status: 503, message: UNAVAILABLE, retryAfter: '5' });
        expect(stored.get(answer.devId)).toBeUndefined();
      }
    }
    expect(after.map((answer) => answer.status)).toEqual(Array(8).fill(201));
    for (const answer of after) expect(stored.get(answer.devId)).toBe(1);
  }, 120_000);

  it('answers a token grant 503 during a stall, and GET /node/{nid} and a first bearer check 503 on MySQL (SQLite readers do not wait for the lock)', async () => {
    const client = await createClient(testApp.app);
    const user = await createUser(testApp.app);
    const created = await post(() => false);
    expect(created.status).toBe(201);
    const [{ nid }] = await testApp.dataSource.query('SELECT nid FROM sensor_report WHERE field_sensor_id = ?', [created.devId]);
    // Never used yet, so the bearer check has to ask the database for its state.
    const unseen = (await ingestCaller(testApp.app)).accessToken;

    await outage.begin();
    try {
      const grant = await request(testApp.app.getHttpServer()).post(TOKEN_PATH).type('form').send({
        grant_type: 'password',
        client_id: client.clientId,
        client_secret: client.clientSecret,
        username: user.username,
        password: user.password,
      });
      const read = await request(testApp.app.getHttpServer()).get(`/node/${nid}?_format=json`).set('Authorization', `Bearer ${token}`);
      const checked = await request(testApp.app.getHttpServer()).get(`/node/${nid}?_format=json`).set('Authorization', `Bearer ${unseen}`);

      expect({ status: grant.status, body: grant.body, retryAfter: grant.headers['retry-after'] }).toEqual({
        status: 503,
        body: { message: UNAVAILABLE },
        retryAfter: '5',
      });
      if (outage.engine === 'mysql') {
        for (const answer of [read, checked]) {
          expect({ status: answer.status, body: answer.body, retryAfter: answer.headers['retry-after'] }).toEqual({
            status: 503,
            body: { message: UNAVAILABLE },
            retryAfter: '5',
          });
        }
      } else {
        // The record's owner reads it; the other user's token is checked and refused.
        expect([read.status, checked.status]).toEqual([200, 403]);
      }
    } finally {
      await outage.end();
    }
  }, 60_000);
});
