import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { BatchesInFlight } from '../src/sensor-record/batch/batches-in-flight.js';
import { FORBIDDEN_CREATE } from './fixtures/oauth-errors.stub.js';
import { submissionFrom, submissionStub } from './fixtures/submission.stub.js';
import { ingestCaller } from './utils/auth-fixtures.js';
import { SENSOR_RECORD_BATCH_URL, storedRows, submitBatch } from './utils/sensor-record-api.js';
import { createTestApp, type TestApp } from './utils/test-app.js';
import { until } from './utils/until.js';

const BUSY = 'Too many batches are being received at once; nothing was stored. Please retry.';

/**
 * Each instance holds at most BATCHES_IN_FLIGHT batches at once, from the first byte of a body read to
 * the answer, since each costs the heap up to tens of MiB; one more is answered 503 with Retry-After
 * and its body is dropped unread.
 */
describe('POST /api-sensor/iot/sensor-records: batches in flight', () => {
  const saved = { ...process.env };
  let testApp: TestApp;
  let token: string;
  let port: number;

  const batch = (count: number, firstSequence = 0) =>
    Array.from({ length: count }, (_, index) => {
      const submission = submissionFrom(submissionStub.minimal);
      submission.payload_fields.field_sequence = firstSequence + index;
      return submission;
    });

  /** A batch whose body is sent in part: it holds its place until `finish` sends the rest (or `abort` hangs up). */
  const heldBatch = async (count: number) => {
    const body = Buffer.from(JSON.stringify(batch(count, 100)));
    const call = http.request({
      port,
      host: '127.0.0.1',
      method: 'POST',
      path: SENSOR_RECORD_BATCH_URL,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'Content-Length': body.length },
    });
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      call.on('error', reject);
      call.on('response', (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      });
    });
    call.write(body.subarray(0, 10));
    await until(() => testApp.app.get(BatchesInFlight).inFlight === 1);
    return { answer, finish: () => call.end(body.subarray(10)), abort: () => call.destroy() };
  };

  beforeAll(async () => {
    process.env.BATCHES_IN_FLIGHT = '1';
    testApp = await createTestApp();
    await testApp.app.listen(0, '127.0.0.1');
    port = (testApp.app.getHttpServer().address() as AddressInfo).port;
  });

  beforeEach(async () => {
    await testApp.reset();
    token = (await ingestCaller(testApp.app)).accessToken;
  });

  afterAll(async () => {
    await testApp?.close();
    process.env = { ...saved };
  });

  it('answers 503 with Retry-After and stores nothing while every place is taken; the same batch is stored once one is free', async () => {
    const held = await heldBatch(3);

    const refused = await submitBatch(testApp.app, batch(2), { token });

    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.headers['content-type']).toMatch(/^application\/json/);
    expect(refused.body).toEqual({ message: BUSY });
    held.finish();
    expect((await held.answer).status).toBe(201);
    expect(await storedRows(testApp.dataSource)).toHaveLength(3);

    const retried = await submitBatch(testApp.app, batch(2), { token }).expect(201);

    expect(retried.body).toHaveLength(2);
    expect(await storedRows(testApp.dataSource)).toHaveLength(5);
  });

  it('answers a caller without a valid token 403 first, full or not', async () => {
    const held = await heldBatch(1);

    const refused = await submitBatch(testApp.app, batch(1), { token: 'not-a-token' });

    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(FORBIDDEN_CREATE);
    held.finish();
    await held.answer;
  });

  it('gives the place back when a batch is refused as invalid or its sender hangs up', async () => {
    await submitBatch(testApp.app, [{ dev_id: 'relay-7' }], { token }).expect(406);
    const abandoned = await heldBatch(1);
    abandoned.abort();
    await abandoned.answer.catch(() => undefined);
    await until(() => testApp.app.get(BatchesInFlight).inFlight === 0);

    await submitBatch(testApp.app, batch(1), { token }).expect(201);

    expect(await storedRows(testApp.dataSource)).toHaveLength(1);
  });
});
