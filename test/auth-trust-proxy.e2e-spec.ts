import request from 'supertest';
import { LoginFailureEntity } from '../src/auth/token-endpoint/login-failure.entity.js';
import { createClient, createUser, TOKEN_PATH, type TestClient } from './utils/auth-fixtures.js';
import { createTestApp, TestApp } from './utils/test-app.js';

const ADDRESS_LIMIT = 3;
const TOO_MANY_FROM_ADDRESS =
  'Too many failed login attempts from your IP address. This IP address is temporarily blocked. Try again later.';

/** An application with the given TRUST_PROXY and a small per-address limit, and password grants sent with X-Forwarded-For. */
function floodLimitedApp(trustProxy: string | undefined) {
  const saved = { ...process.env };
  const context = {} as { testApp: TestApp; client: TestClient };

  beforeAll(async () => {
    if (trustProxy === undefined) delete process.env.TRUST_PROXY;
    else process.env.TRUST_PROXY = trustProxy;
    process.env.LOGIN_FAILURES_PER_ADDRESS = String(ADDRESS_LIMIT);
    context.testApp = await createTestApp();
  });

  beforeEach(async () => {
    await context.testApp.reset();
    context.client = await createClient(context.testApp.app);
  });

  afterAll(async () => {
    await context.testApp.close();
    process.env = { ...saved };
  });

  const passwordGrant = (forwardedFor: string, username: string, password: string) =>
    request(context.testApp.app.getHttpServer())
      .post(TOKEN_PATH)
      .set('X-Forwarded-For', forwardedFor)
      .type('form')
      .send({ grant_type: 'password', client_id: context.client.clientId, client_secret: context.client.clientSecret, username, password });
  return {
    passwordGrant,
    failFrom: async (forwardedFor: (attempt: number) => string) => {
      for (let attempt = 0; attempt < ADDRESS_LIMIT; attempt++)
        await passwordGrant(forwardedFor(attempt), `guess-${attempt}`, 'guess').expect(400);
    },
    createUser: () => createUser(context.testApp.app),
    storedAddresses: async () => [
      ...new Set((await context.testApp.dataSource.getRepository(LoginFailureEntity).find()).map((failure) => failure.address)),
    ],
  };
}

describe('Token endpoint flood limit per address, behind a proxy trusted with TRUST_PROXY=1', () => {
  const { passwordGrant, failFrom, createUser, storedAddresses } = floodLimitedApp('1');

  it('counts failures against the forwarded address, and refuses that address once it reaches the limit', async () => {
    await failFrom(() => '203.0.113.7');
    const user = await createUser();

    const refused = await passwordGrant('203.0.113.7', user.username, user.password).expect(429);

    expect(refused.body.message).toBe(TOO_MANY_FROM_ADDRESS);
    expect(await storedAddresses()).toEqual(['203.0.113.7']);
    await passwordGrant('198.51.100.9', user.username, user.password).expect(200);
  });

  it('takes the address the trusted proxy appended, not one the client wrote before it', async () => {
    await failFrom(() => '192.0.2.1, 203.0.113.7');

    expect(await storedAddresses()).toEqual(['203.0.113.7']);
  });
});

describe('Token endpoint flood limit per address, without TRUST_PROXY', () => {
  const { passwordGrant, failFrom, createUser, storedAddresses } = floodLimitedApp(undefined);

  it('ignores a forged X-Forwarded-For: every failure counts against the connection, whatever the header says', async () => {
    await failFrom((attempt) => `203.0.113.${attempt}`);
    const user = await createUser();

    const refused = await passwordGrant('198.51.100.9', user.username, user.password).expect(429);

    expect(refused.body.message).toBe(TOO_MANY_FROM_ADDRESS);
    expect(await storedAddresses()).toEqual([expect.stringMatching(/^(::ffff:)?127\.0\.0\.1$|^::1$/)]);
  });
});
