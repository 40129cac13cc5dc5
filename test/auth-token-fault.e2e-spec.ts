import { jest } from '@jest/globals';
import request from 'supertest';
import { createClient, createUser, obtainTokens, TOKEN_PATH, type TestClient, type TestUser } from './utils/auth-fixtures.js';
import { databaseOutage } from './utils/database-outage.js';
import { createTestApp, type TestApp } from './utils/test-app.js';

describe('Token endpoint while the database goes away and comes back', () => {
  const outage = databaseOutage();
  let testApp: TestApp;
  let client: TestClient;
  let user: TestUser;

  const passwordGrant = () =>
    request(testApp.app.getHttpServer()).post(TOKEN_PATH).type('form').send({
      grant_type: 'password',
      client_id: client.clientId,
      client_secret: client.clientSecret,
      username: user.username,
      password: user.password,
    });
  const refreshGrant = (refreshToken: string) =>
    request(testApp.app.getHttpServer())
      .post(TOKEN_PATH)
      .type('form')
      .send({ grant_type: 'refresh_token', client_id: client.clientId, client_secret: client.clientSecret, refresh_token: refreshToken });
  const expectUnavailable = (response: request.Response) => {
    expect(response.status).toBe(503);
    expect(response.headers['retry-after']).toMatch(/^[1-9]\d*$/);
    expect(response.body).toEqual({ message: expect.stringMatching(/database is temporarily unavailable/) });
  };

  beforeAll(async () => {
    // TypeORM logs every failed query with its parameters; here they are the point of the test.
    jest.spyOn(console, 'log').mockImplementation(() => undefined);
    await outage.prepare();
    testApp = await createTestApp();
    await testApp.reset();
    client = await createClient(testApp.app);
    user = await createUser(testApp.app);
  });

  afterAll(async () => {
    await testApp?.close();
    await outage.dispose();
    jest.restoreAllMocks();
  });

  it('answers 503 with Retry-After to both grants during the outage, and grants again once it is over', async () => {
    const pair = await obtainTokens(testApp.app, client, user);

    await outage.begin();
    try {
      expectUnavailable(await passwordGrant());
      expectUnavailable(await refreshGrant(pair.refresh_token));
    } finally {
      await outage.end();
    }

    await passwordGrant().expect(200);
    await refreshGrant(pair.refresh_token).expect(200);
  });
});
