import { jest } from '@jest/globals';
import request from 'supertest';
import { submissionFrom, submissionStub } from './fixtures/submission.stub.js';
import { ingestCaller } from './utils/auth-fixtures.js';
import { databaseOutage } from './utils/database-outage.js';
import { describeOn } from './utils/engine.js';
import { storedRows, submit } from './utils/sensor-record-api.js';
import { countWrites } from './utils/count-writes.js';
import { createTestApp, type TestApp } from './utils/test-app.js';
import { until } from './utils/until.js';

const UNAVAILABLE = 'The database is temporarily unavailable; nothing was stored. Please retry.';
const UNCONFIRMED = 'The database did not confirm the record in time: it may have been stored. A retry may store it twice.';

describe('POST /api-sensor/iot/sensor-record while the database goes away and comes back', () => {
  const outage = databaseOutage('cut');
  let testApp: TestApp;
  let token: string;
  let writes: () => number;

  const post = () => submit(testApp.app, submissionFrom(submissionStub.trapSprung), { token, format: 'json' });

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
    // Some rows written, the rest of the stream still to come: the outage meets requests in flight.
    await until(() => writes() >= 8);
    await outage.begin();
    await before;
    await stream(20);
    await outage.end();
    await stream(20);

    const created = answers.filter((answer) => answer.status === 201);
    const refused = answers.filter((answer) => answer.status !== 201);
    const unconfirmed = refused.filter((answer) => answer.body.message === UNCONFIRMED);
    expect(refused.length).toBeGreaterThan(0);
    for (const answer of refused) {
      expect(answer).toEqual({ status: 503, body: { message: expect.any(String) }, retryAfter: '5' });
      // SQLite commits in-process: its COMMIT is confirmed or fails, so every 503 there stored nothing.
      expect(outage.engine === 'sqlite' ? [UNAVAILABLE] : [UNAVAILABLE, UNCONFIRMED]).toContain(answer.body.message);
    }
    // Recovered: the last stream, after the database came back, was stored in full.
    expect(answers.slice(-20).every((answer) => answer.status === 201)).toBe(true);

    const rows = await storedRows(testApp.dataSource);
    const rowsByNid = new Map(rows.map((row) => [row.nid, row]));
    for (const answer of created) {
      const nid = (answer.body.nid as [{ value: number }])[0].value;
      expect(rowsByNid.get(nid)).toMatchObject({ uuid: (answer.body.uuid as [{ value: string }])[0].value, vid: nid });
    }
    // No half-written record; a row beyond the 201s can only be one whose COMMIT went unconfirmed as the connection
    // dropped (none on SQLite, where the rows are exactly the 201s).
    expect(rows.every((row) => row.vid === row.nid && row.field_sensor_id === '0004A30B001C1234')).toBe(true);
    expect(rows.length).toBeGreaterThanOrEqual(created.length);
    expect(rows.length - created.length).toBeLessThanOrEqual(unconfirmed.length);
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
