import { setTimeout as delay } from 'node:timers/promises';
import { jest } from '@jest/globals';
import { submissionFrom, submissionStub } from './fixtures/submission.stub.js';
import { ingestCaller } from './utils/auth-fixtures.js';
import { storedRows, submit } from './utils/sensor-record-api.js';
import { createTestApp, type TestApp } from './utils/test-app.js';
import { databaseTimeLeft } from '../src/database/database-deadline.js';
import type { QueryRunner } from 'typeorm';
import { SensorProjection } from '../src/sensor/projection/sensor-projection.js';

/**
 * A request whose deadline runs out inside its transaction is answered 503 "nothing was stored": its
 * ROLLBACK can no longer be waited for, so its connection must leave the pool with the transaction
 * open (the server rolls it back), never serve the next request, whose START TRANSACTION or COMMIT
 * would store the abandoned rows too. One pooled connection, so the next request surely gets it.
 */
describe('A transaction abandoned at its deadline (MySQL only)', () => {
  const poolSize = process.env.DB_POOL_SIZE;
  let testApp: TestApp;
  let token: string;

  beforeAll(async () => {
    // TypeORM logs the refused statements; here they are the point of the test.
    jest.spyOn(console, 'log').mockImplementation(() => undefined);
    process.env.DB_POOL_SIZE = '1';
    testApp = await createTestApp();
  });

  beforeEach(async () => {
    await testApp.reset();
    token = (await ingestCaller(testApp.app)).accessToken;
  });

  afterAll(async () => {
    await testApp?.close();
    if (poolSize === undefined) delete process.env.DB_POOL_SIZE;
    else process.env.DB_POOL_SIZE = poolSize;
    jest.restoreAllMocks();
  });

  /** Holds `method` of `prototype` once, until the request's database deadline has passed, then runs it. */
  function stallOnce<T extends object>(prototype: T, method: keyof T & string) {
    const original = prototype[method] as (...args: unknown[]) => Promise<unknown>;
    return jest.spyOn(prototype as Record<string, (...args: unknown[]) => Promise<unknown>>, method).mockImplementationOnce(async function (
      this: unknown,
      ...args: unknown[]
    ) {
      await delay(databaseTimeLeft() + 1);
      return original.apply(this, args);
    });
  }

  /** The driver's query runner class, through TypeORM's public API (a runner connects only when used). */
  function queryRunnerPrototype(): QueryRunner {
    return Object.getPrototypeOf(testApp.dataSource.createQueryRunner()) as QueryRunner;
  }

  it.each([
    // The record is inserted; the deadline passes before the transaction's next statement, then its ROLLBACK is refused.
    ['before its ROLLBACK', () => stallOnce(SensorProjection.prototype, 'apply')],
    // Everything is in the transaction; the deadline passes before the COMMIT is sent, then its ROLLBACK is refused.
    ['before its COMMIT', () => stallOnce(queryRunnerPrototype(), 'commitTransaction')],
  ])('stores nothing of a record answered "nothing was stored" %s, even after the next request commits', async (_, stall) => {
    const stalled = stall();
    const abandoned = await submit(
      testApp.app,
      { ...submissionFrom(submissionStub.trapSprung), dev_id: 'abandoned-1' },
      { token, format: 'json' },
    );
    stalled.mockRestore();

    const next = await submit(
      testApp.app,
      { ...submissionFrom(submissionStub.trapSprung), dev_id: 'committed-2' },
      { token, format: 'json' },
    );

    expect({ status: abandoned.status, body: abandoned.body }).toEqual({
      status: 503,
      body: { message: 'The database is temporarily unavailable; nothing was stored. Please retry.' },
    });
    expect(next.status).toBe(201);
    expect((await storedRows(testApp.dataSource)).map((row) => row.field_sensor_id)).toEqual(['committed-2']);
  });
});
