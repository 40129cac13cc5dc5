import { createHash } from 'node:crypto';
import request from 'supertest';
import { RefreshTokenEntity } from '../src/auth/tokens/refresh-token.entity.js';
import { oauthErrorStub } from './fixtures/oauth-errors.stub.js';
import { createClient, createUser, obtainTokens, TOKEN_PATH, type TestClient } from './utils/auth-fixtures.js';
import { createTestApp, TestApp } from './utils/test-app.js';

const POOL_SIZE = 2;
const CONCURRENT_REFRESHES = 4 * POOL_SIZE;

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/**
 * Concurrent refresh grants, run by `npm run test:mysql` only (jest.config.js leaves `*.mysql.e2e-spec.ts`
 * out on SQLite). On SQLite every transaction waits for the one before it on the single shared
 * connection, so these races never happen there and the tests would pass whatever the code did;
 * on MySQL each transaction has a pooled connection of its own and the races are real.
 */
describe('Token endpoint: concurrent refresh grants (MySQL)', () => {
  const saved = { ...process.env };
  let testApp: TestApp;
  let client: TestClient;

  const refresh = (refreshToken: string) =>
    request(testApp.app.getHttpServer()).post(TOKEN_PATH).type('form').send({
      grant_type: 'refresh_token',
      client_id: client.clientId,
      client_secret: client.clientSecret,
      refresh_token: refreshToken,
    });

  beforeAll(async () => {
    process.env.DB_POOL_SIZE = String(POOL_SIZE);
    testApp = await createTestApp();
  });

  beforeEach(async () => {
    await testApp.reset();
    client = await createClient(testApp.app);
  });

  afterAll(async () => {
    await testApp.close();
    process.env = { ...saved };
  });

  // A refresh holds a connection for its transaction; every query it makes meanwhile must use that same
  // connection, or more concurrent refreshes than the pool has connections wait on each other forever.
  it(`answers ${CONCURRENT_REFRESHES} concurrent refreshes on a pool of ${POOL_SIZE}`, async () => {
    const pairs = await Promise.all(
      Array.from({ length: CONCURRENT_REFRESHES }, async () => obtainTokens(testApp.app, client, await createUser(testApp.app))),
    );

    const answers = await Promise.all(pairs.map((pair) => refresh(pair.refresh_token)));

    expect(answers.map((answer) => answer.status)).toEqual(Array(CONCURRENT_REFRESHES).fill(200));
  });

  it('lets exactly one of two concurrent refreshes with the same token win', async () => {
    const pair = await obtainTokens(testApp.app, client, await createUser(testApp.app));

    const [first, second] = await Promise.all([refresh(pair.refresh_token), refresh(pair.refresh_token)]);

    const statuses = [first.status, second.status].sort();
    expect(statuses).toEqual([200, 400]);
    const loser = first.status === 400 ? first : second;
    expect(loser.body).toEqual(oauthErrorStub.invalidRefreshToken('Token has been revoked'));
    const repository = testApp.dataSource.getRepository(RefreshTokenEntity);
    const family = (await repository.findOneByOrFail({ tokenHash: sha256(pair.refresh_token) })).familyId;
    // The loser presented a used token, so the family (including the winner's new pair) is revoked.
    const rows = await repository.findBy({ familyId: family });
    expect(rows).toHaveLength(2);
    expect(rows.every((row) => row.revoked)).toBe(true);
  });
});
