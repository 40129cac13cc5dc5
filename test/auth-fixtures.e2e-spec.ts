import request from 'supertest';
import { FORBIDDEN_CREATE } from './fixtures/oauth-errors.stub.js';
import { AuthProbeController, ingestCaller, PROBE_INGEST } from './utils/auth-fixtures.js';
import { createTestApp, TestApp } from './utils/test-app.js';

describe('Auth fixtures', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp({ controllers: [AuthProbeController] });
  });

  beforeEach(async () => {
    await testApp.reset();
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('ingestCaller yields a token the bearer guard accepts for its user', async () => {
    const caller = await ingestCaller(testApp.app);

    const response = await request(testApp.app.getHttpServer())
      .get(PROBE_INGEST)
      .set('Authorization', `Bearer ${caller.accessToken}`)
      .expect(200);

    expect(response.body).toEqual({
      uid: caller.uid,
      uuid: caller.uuid,
      name: caller.username,
      clientId: expect.any(String),
      mayCreateSensorRecords: true,
    });
  });

  it('ingestCaller({ ingest: false }) yields a caller refused where ingest is required', async () => {
    const caller = await ingestCaller(testApp.app, { ingest: false });

    const response = await request(testApp.app.getHttpServer())
      .get(PROBE_INGEST)
      .set('Authorization', `Bearer ${caller.accessToken}`)
      .expect(403);

    expect(response.body).toEqual(FORBIDDEN_CREATE);
  });
});
