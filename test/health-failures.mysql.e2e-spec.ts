import { jest } from '@jest/globals';
import request from 'supertest';
import { databaseOutage } from './utils/database-outage.js';
import { createTestApp, TestApp } from './utils/test-app.js';
import { until } from './utils/until.js';

/**
 * The readiness probe against a database server that goes away and one that stops answering. On SQLite
 * `SELECT 1` never reaches the file, so it can neither fail nor hang while the connection is open (the
 * closed connection is tried in health.e2e-spec.ts): these run on MySQL only, as the file name says.
 */
describe('Readiness when the database server fails', () => {
  const ready = (testApp: TestApp) => request(testApp.app.getHttpServer()).get('/health/ready');

  beforeAll(() => {
    // TypeORM logs the failed probes; here they are the point of the test.
    jest.spyOn(console, 'log').mockImplementation(() => undefined);
  });

  afterAll(() => {
    jest.restoreAllMocks();
  });

  it.each([
    ['gone (every connection dropped, new ones refused)', 'cut', /ECONNREFUSED|ECONNRESET|Connection lost|closed state/],
    ['stalled (SELECT 1 hangs past 1.5 s)', 'stall', /^No answer within 1500 ms$/],
  ] as const)('answers 503 while the server is %s, and 200 again once it is back', async (_case, kind, reason) => {
    const outage = databaseOutage(kind);
    await outage.prepare();
    const testApp = await createTestApp();
    try {
      await ready(testApp).expect(200);

      await outage.begin();
      const down = await ready(testApp).expect(503);
      await outage.end();
      await until(async () => (await ready(testApp)).status === 200);

      expect(down.body).toMatchObject({
        message: 'Not ready: database is down.',
        status: 'error',
        error: { database: { status: 'down' } },
      });
      expect(down.body.error.database.message).toMatch(reason);
    } finally {
      await testApp.close();
      await outage.dispose();
    }
  });
});
