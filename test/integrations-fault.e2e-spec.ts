import { jest } from '@jest/globals';
import request from 'supertest';
import { ttsUplinkStub } from './fixtures/tts-uplink.stub.js';
import { databaseOutage } from './utils/database-outage.js';
import { createIntegration, postTtsUplink, type TestIntegration } from './utils/integration-api.js';
import { storedRows } from './utils/sensor-record-api.js';
import { createTestApp, type TestApp } from './utils/test-app.js';
import { until } from './utils/until.js';

const UNAVAILABLE = 'The database is temporarily unavailable; nothing was stored. Please retry.';

describe('POST /api-sensor/integrations/tts/uplink while the database is away', () => {
  const outage = databaseOutage('cut');
  let testApp: TestApp;
  let integration: TestIntegration;

  const uplink = (counter: number) => {
    const body = structuredClone(ttsUplinkStub.threeGateways);
    body.uplink_message.f_cnt = counter;
    return body;
  };

  beforeAll(async () => {
    // TypeORM logs every failed query with its parameters; here they are the point of the test.
    jest.spyOn(console, 'log').mockImplementation(() => undefined);
    await outage.prepare();
    testApp = await createTestApp();
    await testApp.reset();
    integration = await createIntegration(testApp.app, { network: 'tts' });
  });

  afterAll(async () => {
    await testApp?.close();
    await outage.dispose();
    jest.restoreAllMocks();
  });

  it('answers 503 with Retry-After and stores nothing; the uplink sent again once the database is back is stored once', async () => {
    await postTtsUplink(testApp.app, uplink(1), integration.apiKey).expect(201);

    await outage.begin();
    const refused = await postTtsUplink(testApp.app, uplink(2), integration.apiKey);
    await outage.end();
    await until(async () => (await request(testApp.app.getHttpServer()).get('/health/ready')).status === 200);

    expect({ status: refused.status, body: refused.body, retryAfter: refused.headers['retry-after'] }).toEqual({
      status: 503,
      body: { message: UNAVAILABLE },
      retryAfter: '5',
    });
    expect((await storedRows(testApp.dataSource)).map((row) => row.field_sequence)).toEqual([1]);
    await postTtsUplink(testApp.app, uplink(2), integration.apiKey).expect(201);
    await postTtsUplink(testApp.app, uplink(2), integration.apiKey).expect(200);
    expect((await storedRows(testApp.dataSource)).map((row) => row.field_sequence)).toEqual([1, 2]);
  });
});
