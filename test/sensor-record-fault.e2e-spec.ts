import { jest } from '@jest/globals';
import request from 'supertest';
import { submissionFrom, submissionStub } from './fixtures/submission.stub.js';
import { ingestCaller } from './utils/auth-fixtures.js';
import { databaseOutage } from './utils/database-outage.js';
import { describeOn } from './utils/engine.js';
import { storedRows, submit } from './utils/sensor-record-api.js';
import { countWrites } from './utils/count-writes.js';
import { sendUntilAnswered } from './utils/send-until-answered.js';
import { createTestApp, type TestApp } from './utils/test-app.js';
import { until } from './utils/until.js';

const UNAVAILABLE = 'The database is temporarily unavailable; nothing was stored. Please retry.';
const UNCONFIRMED = 'The database did not confirm the record in time: it may have been stored. A retry may store it twice.';

interface Answer {
  devId: string;
  status: number;
  body: Record<string, unknown>;
  retryAfter?: string;
}

describe('POST /api-sensor/iot/sensor-record while the database goes away and comes back', () => {
  const outage = databaseOutage('cut');
  let testApp: TestApp;
  let token: string;
  let writes: () => number;
  let sequence = 0;

  const post = (devId = submissionStub.trapSprung.dev_id) =>
    submit(testApp.app, { ...submissionFrom(submissionStub.trapSprung), dev_id: devId }, { token, format: 'json' });

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
    jest.restoreAllMocks();
  });

  it('answers 201 only for stored rows and 503 otherwise, and recovers without a restart', async () => {
    const answers: Answer[] = [];
    // Each report from a device of its own, so that what each answer stored can be read back.
    const report = async (): Promise<Answer> => {
      const devId = `fault-${++sequence}`;
      const response = await post(devId);
      return { devId, status: response.status, body: response.body, retryAfter: response.headers['retry-after'] };
    };
    const reportOnce = async () => {
      const answer = await report();
      answers.push(answer);
      return answer;
    };
    // Four senders at once, each `count / 4` reports one after another, so requests are in flight when the database goes.
    const stream = async (count: number, send: () => Promise<Answer>): Promise<Answer[]> => {
      const senders = Array.from({ length: 4 }, async () => {
        const sent: Answer[] = [];
        while (sent.length < count / 4) sent.push(await send());
        return sent;
      });
      return (await Promise.all(senders)).flat();
    };

    const before = stream(40, reportOnce);
    // Some rows written, the rest of the stream still to come: the outage meets requests in flight.
    await until(() => writes() >= 8);
    await outage.begin();
    await before;
    await stream(20, reportOnce);
    await outage.end();
    const recovered = await stream(20, () => sendUntilAnswered(report, answers));

    const refused = answers.filter((answer) => answer.status !== 201);
    expect(refused.length).toBeGreaterThan(0);
    for (const answer of refused) {
      expect(answer).toEqual({ ...answer, status: 503, body: { message: expect.any(String) }, retryAfter: '5' });
      // SQLite commits in-process: its COMMIT is confirmed or fails, so every 503 there stored nothing.
      expect(outage.engine === 'sqlite' ? [UNAVAILABLE] : [UNAVAILABLE, UNCONFIRMED]).toContain(answer.body.message);
    }
    // Recovered: each of the last stream's reports, sent after the database came back, was stored.
    expect(recovered.map((answer) => answer.status)).toEqual(Array(20).fill(201));

    const rows = await storedRows(testApp.dataSource);
    const rowsOf = (answer: Answer) => rows.filter((row) => row.field_sensor_id === answer.devId);
    for (const answer of answers) {
      if (answer.status === 201) {
        const nid = (answer.body.nid as [{ value: number }])[0].value;
        const uuid = (answer.body.uuid as [{ value: string }])[0].value;
        expect({ answer, rows: rowsOf(answer) }).toEqual({ answer, rows: [expect.objectContaining({ nid, vid: nid, uuid })] });
      } else if (answer.body.message === UNCONFIRMED) {
        // The COMMIT went out as the connection dropped: stored once, or not at all.
        expect(rowsOf(answer).length).toBeLessThanOrEqual(1);
      } else {
        expect({ answer, rows: rowsOf(answer) }).toEqual({ answer, rows: [] });
      }
    }
    // No half-written record, and none but the reports sent.
    expect(rows.filter((row) => row.vid !== row.nid || !answers.some((answer) => answer.devId === row.field_sensor_id))).toEqual([]);
  });

  // On SQLite the outage is another connection's write lock, which readers do not wait for.
  describeOn('mysql', 'reading a record back', () => {
    it('answers GET /node/{nid} 503 with Retry-After while the server is gone, and the record once it is back', async () => {
      const created = await post().expect(201);
      const read = () =>
        request(testApp.app.getHttpServer()).get(`/node/${created.body.nid[0].value}?_format=json`).set('Authorization', `Bearer ${token}`);

      await outage.begin();
      let during: request.Response;
      try {
        during = await read();
      } finally {
        await outage.end();
      }
      const after = await read();

      expect({ status: during.status, body: during.body, retryAfter: during.headers['retry-after'] }).toEqual({
        status: 503,
        body: { message: UNAVAILABLE },
        retryAfter: '5',
      });
      expect({ status: after.status, body: after.body }).toEqual({ status: 200, body: created.body });
    });
  });
});
