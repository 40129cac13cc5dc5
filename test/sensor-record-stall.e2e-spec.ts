import { jest } from '@jest/globals';
import request from 'supertest';
import { submissionFrom, submissionStub } from './fixtures/submission.stub.js';
import { APP_CONFIG, type AppConfig } from '../src/config/app-config.js';
import { createClient, createUser, ingestCaller, TOKEN_PATH } from './utils/auth-fixtures.js';
import { databaseOutage } from './utils/database-outage.js';
import { storedRows, submit } from './utils/sensor-record-api.js';
import { type Acknowledged, unstoredRecords } from './utils/acknowledged-records.js';
import { countWrites } from './utils/count-writes.js';
import { MachineLateness } from './utils/machine-lateness.js';
import { sendUntilAnswered } from './utils/send-until-answered.js';
import { createTestApp, type TestApp } from './utils/test-app.js';
import { until } from './utils/until.js';

const UNAVAILABLE = 'The database is temporarily unavailable; nothing was stored. Please retry.';
const UNCONFIRMED = 'The database did not confirm the record in time: it may have been stored. A retry may store it twice.';

interface Answer extends Partial<Acknowledged> {
  devId: string;
  /** Sent after the stall began (and answered before it ended: the stall lasts until every such answer is in). */
  duringStall: boolean;
  status: number;
  message?: string;
  retryAfter?: string;
  /** From sending the request to its answer, less the time the machine left the process without a core. */
  waitedMs: number;
  /** When it was sent and answered, in ms on the test's clock (`performance.now()`), for a failure to place it against the stall. */
  sentAt: number;
  answeredAt: number;
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
    const answeredAt = performance.now();
    return {
      devId,
      duringStall: sentDuringStall,
      status: response.status,
      message: response.body?.message,
      retryAfter: response.headers['retry-after'],
      ...(response.status === 201 && recordOf(response.body)),
      waitedMs: answeredAt - sentAt - (lateness.now() - lateBefore),
      sentAt,
      answeredAt,
    };
  };

  /** A report sent outside any stall, sent again while answered 503 (sendUntilAnswered), each answer added to `answers`. */
  const postUntilAnswered = (answers: Answer[]): Promise<Answer> => sendUntilAnswered(() => post(() => false), answers);

  /** The record a 201 names, by the members of its body. */
  const recordOf = (body: { nid?: [{ value?: number }]; uuid?: [{ value?: string }] }) => ({
    nid: body.nid?.[0].value,
    uuid: body.uuid?.[0].value,
  });

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
    const stall = { began: performance.now(), endedAfterMs: 0 };
    stalled = true;
    await Promise.all(devices);
    await outage.end();
    stall.endedAfterMs = performance.now() - stall.began;
    stalled = false;
    // The server gets what the stall held back from the connections the service gave up on only now, and
    // ends their sessions (a COMMIT among it stores a row answered 503): what follows starts after that,
    // so that no abandoned transaction still holds a lock or has yet to store its row.
    await outage.settled();
    // Recovered without a restart: eight devices each have a report stored.
    const after: Answer[] = [];
    const recovered = await Promise.all(Array.from({ length: 8 }, () => postUntilAnswered(after)));

    // Each 201 is its own row, found by the nid it answered. A failure shows each answer placed against
    // the stall (ms from its beginning), and what the database says about the missing rows.
    const acknowledged = [...answers, ...after]
      .filter((answer) => answer.status === 201)
      .map((answer) => ({ ...answer, sentAt: answer.sentAt - stall.began, answeredAt: answer.answeredAt - stall.began }));
    expect({ stall, ...(await unstoredRecords(testApp.dataSource, outage, acknowledged)) }).toEqual({ stall, unstored: [] });
    const rows = await storedRows(testApp.dataSource);
    const stored = new Map<unknown, number>();
    for (const row of rows) stored.set(row.field_sensor_id, (stored.get(row.field_sensor_id) ?? 0) + 1);
    const duringStall = answers.filter((answer) => answer.duringStall);
    expect(duringStall.length).toBeGreaterThanOrEqual(8);
    for (const answer of duringStall) {
      expect(answer).toEqual({ ...answer, status: 503, message: UNAVAILABLE, retryAfter: '5' });
      expect(answer.waitedMs).toBeLessThan(deadlineMs + ANSWER_MARGIN_MS);
    }
    for (const answer of [...answers, ...after]) {
      if (answer.status === 201) expect(stored.get(answer.devId)).toBe(1);
      // SQLite commits in-process, so there no COMMIT goes unconfirmed: every 503 stored nothing.
      else if (answer.message === UNCONFIRMED && outage.engine === 'mysql') expect(stored.get(answer.devId) ?? 0).toBeLessThanOrEqual(1);
      else {
        expect(answer).toEqual({ ...answer, status: 503, message: UNAVAILABLE, retryAfter: '5' });
        expect(stored.get(answer.devId)).toBeUndefined();
      }
    }
    expect(recovered.map((answer) => answer.status)).toEqual(Array(8).fill(201));
  }, 120_000);

  it('answers a token grant 503 during a stall, and GET /node/{nid} and a first bearer check 503 on MySQL (SQLite readers do not wait for the lock)', async () => {
    const client = await createClient(testApp.app);
    const user = await createUser(testApp.app);
    const created = await postUntilAnswered([]);
    expect(created.status).toBe(201);
    expect(await unstoredRecords(testApp.dataSource, outage, [created])).toEqual({ unstored: [] });
    const { nid } = created;
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
