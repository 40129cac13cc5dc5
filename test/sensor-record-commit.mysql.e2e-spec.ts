import { jest } from '@jest/globals';
import request from 'supertest';
import { submissionFrom, submissionStub } from './fixtures/submission.stub.js';
import { ingestCaller } from './utils/auth-fixtures.js';
import { storedRows, submit } from './utils/sensor-record-api.js';
import { TcpProxy } from './utils/tcp-proxy.js';
import { createTestApp, type TestApp } from './utils/test-app.js';

const databaseUrl = process.env.DATABASE_URL ?? '';

/**
 * The one case where a caller is answered 503 for a record that is stored: the COMMIT reached MySQL
 * and its answer did not come back in time. SQLite commits in-process, so it has no such case: this
 * suite runs on MySQL only (`npm run test:mysql`).
 */
describe('A COMMIT whose answer never comes (MySQL only)', () => {
  const target = new URL(databaseUrl);
  const proxy = new TcpProxy(target.hostname, Number(target.port || 3306));
  let testApp: TestApp;
  let token: string;

  beforeAll(async () => {
    // TypeORM logs the failed COMMIT; here it is the point of the test.
    jest.spyOn(console, 'log').mockImplementation(() => undefined);
    const url = new URL(databaseUrl);
    url.hostname = '127.0.0.1';
    url.port = String(await proxy.start());
    process.env.DATABASE_URL = url.toString();
    testApp = await createTestApp();
    await testApp.reset();
    token = (await ingestCaller(testApp.app)).accessToken;
  });

  afterAll(async () => {
    await testApp?.close();
    await proxy.stop();
    process.env.DATABASE_URL = databaseUrl;
    jest.restoreAllMocks();
  });

  it('answers 503 saying the record may be stored, counts it, and the record is there', async () => {
    proxy.holdAnswersAfter('COMMIT');
    const response = await submit(
      testApp.app,
      { ...submissionFrom(submissionStub.trapSprung), dev_id: 'unconfirmed-1' },
      { token, format: 'json' },
    );
    proxy.resume();

    expect({ status: response.status, body: response.body, retryAfter: response.headers['retry-after'] }).toEqual({
      status: 503,
      body: { message: 'The database did not confirm the record in time: it may have been stored. A retry may store it twice.' },
      retryAfter: '5',
    });
    const metrics = await request(testApp.app.getHttpServer()).get('/metrics').expect(200);
    expect(metrics.text).toMatch(/^sensor_records_unconfirmed_total 1$/m);
    expect((await storedRows(testApp.dataSource)).map((row) => row.field_sensor_id)).toEqual(['unconfirmed-1']);

    const next = await submit(
      testApp.app,
      { ...submissionFrom(submissionStub.trapSprung), dev_id: 'confirmed-2' },
      { token, format: 'json' },
    );
    expect(next.status).toBe(201);
  });
});
