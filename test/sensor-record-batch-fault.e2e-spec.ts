import { jest } from '@jest/globals';
import { submissionFrom, submissionStub } from './fixtures/submission.stub.js';
import { ingestCaller } from './utils/auth-fixtures.js';
import { databaseOutage } from './utils/database-outage.js';
import { storedRows, submitBatch } from './utils/sensor-record-api.js';
import { createTestApp, type TestApp } from './utils/test-app.js';

const UNAVAILABLE = 'The database is temporarily unavailable; nothing was stored. Please retry.';

describe('POST /api-sensor/iot/sensor-records while the database is away', () => {
  const outage = databaseOutage('cut');
  let testApp: TestApp;
  let token: string;

  const submissions = Array.from({ length: 50 }, (_, index) => {
    const submission = submissionFrom(submissionStub.trapSprung);
    submission.payload_fields.field_sequence = index;
    return submission;
  });

  beforeAll(async () => {
    // TypeORM logs every failed query with its parameters; here they are the point of the test.
    jest.spyOn(console, 'log').mockImplementation(() => undefined);
    await outage.prepare();
    testApp = await createTestApp();
    await testApp.reset();
    token = (await ingestCaller(testApp.app)).accessToken;
  });

  afterAll(async () => {
    await testApp?.close();
    await outage.dispose();
    jest.restoreAllMocks();
  });

  it('answers 503 with Retry-After and stores none of the reports; the same batch is stored whole once the database is back', async () => {
    // A first batch, so the token's state is known and the outage meets the write itself.
    await submitBatch(testApp.app, submissions.slice(0, 1), { token }).expect(201);

    await outage.begin();
    let refused;
    try {
      refused = await submitBatch(testApp.app, submissions, { token });
    } finally {
      await outage.end();
    }

    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.body).toEqual({ message: UNAVAILABLE });
    expect(await storedRows(testApp.dataSource)).toHaveLength(1);

    const retried = await submitBatch(testApp.app, submissions, { token }).expect(201);

    expect(retried.body).toHaveLength(50);
    const rows = await storedRows(testApp.dataSource);
    expect(rows).toHaveLength(51);
    expect(
      rows
        .slice(1)
        .map((row) => row.field_sequence as number)
        .sort((a, b) => a - b),
    ).toEqual(submissions.map((_, index) => index));
  });
});
