import request from 'supertest';
import { createClient, createUser, obtainTokens, TOKEN_PATH } from './utils/auth-fixtures.js';
import { createTestApp, TestApp } from './utils/test-app.js';

const POOL_SIZE = 2;
const CONCURRENT_REFRESHES = 4 * POOL_SIZE;

/**
 * A refresh holds a connection for its transaction; every query it makes meanwhile must use that same
 * connection, or more concurrent refreshes than the pool has connections wait on each other forever.
 */
describe('Token endpoint: refresh grants beyond the connection pool size', () => {
  const saved = { ...process.env };
  let testApp: TestApp;

  beforeAll(async () => {
    process.env.DB_POOL_SIZE = String(POOL_SIZE);
    testApp = await createTestApp();
    await testApp.reset();
  });

  afterAll(async () => {
    await testApp.close();
    process.env = { ...saved };
  });

  it(`answers ${CONCURRENT_REFRESHES} concurrent refreshes on a pool of ${POOL_SIZE}`, async () => {
    const client = await createClient(testApp.app);
    const pairs = await Promise.all(
      Array.from({ length: CONCURRENT_REFRESHES }, async () => obtainTokens(testApp.app, client, await createUser(testApp.app))),
    );

    const answers = await Promise.all(
      pairs.map((pair) =>
        request(testApp.app.getHttpServer()).post(TOKEN_PATH).type('form').send({
          grant_type: 'refresh_token',
          client_id: client.clientId,
          client_secret: client.clientSecret,
          refresh_token: pair.refresh_token,
        }),
      ),
    );

    expect(answers.map((answer) => answer.status)).toEqual(Array(CONCURRENT_REFRESHES).fill(200));
  });
});
