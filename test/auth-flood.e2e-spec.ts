import request from 'supertest';
import { LoginFailureEntity } from '../src/auth/token-endpoint/login-failure.entity.js';
import { oauthErrorStub } from './fixtures/oauth-errors.stub.js';
import { createClient, createUser, TOKEN_PATH, type TestClient, type TestUser } from './utils/auth-fixtures.js';
import { createTestApp, TestApp } from './utils/test-app.js';

// Small limits for this file only; the configuration is read when the application is created.
const LIMITS = {
  LOGIN_FAILURES_PER_USERNAME: '3',
  LOGIN_FAILURE_USERNAME_WINDOW: '600',
  LOGIN_FAILURES_PER_ADDRESS: '5',
  LOGIN_FAILURE_ADDRESS_WINDOW: '120',
};

const TOO_MANY_FOR_NAME = 'Too many failed login attempts for this account. It is temporarily blocked. Try again later.';
const TOO_MANY_FROM_ADDRESS =
  'Too many failed login attempts from your IP address. This IP address is temporarily blocked. Try again later.';

describe('Token endpoint: flood limits on failed password grants', () => {
  let testApp: TestApp;
  let client: TestClient;
  let saved: Record<string, string | undefined>;

  const passwordGrant = (username: string, password: string) =>
    request(testApp.app.getHttpServer()).post(TOKEN_PATH).type('form').send({
      grant_type: 'password',
      client_id: client.clientId,
      client_secret: client.clientSecret,
      username,
      password,
    });
  const failTimes = async (times: number, username: (attempt: number) => string) => {
    for (let attempt = 0; attempt < times; attempt++) {
      expect((await passwordGrant(username(attempt), 'wrong password').expect(400)).body).toEqual(oauthErrorStub.invalidCredentials);
    }
  };
  const ageFailures = (seconds: number) =>
    testApp.dataSource
      .createQueryBuilder()
      .update(LoginFailureEntity)
      .set({ attemptedAt: new Date(Date.now() - seconds * 1000) })
      .execute();

  beforeAll(async () => {
    saved = Object.fromEntries(Object.keys(LIMITS).map((name) => [name, process.env[name]]));
    Object.assign(process.env, LIMITS);
    testApp = await createTestApp();
  });

  beforeEach(async () => {
    await testApp.reset();
    client = await createClient(testApp.app);
  });

  afterAll(async () => {
    await testApp.close();
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  describe('per user name', () => {
    let user: TestUser;

    beforeEach(async () => {
      user = await createUser(testApp.app);
      await failTimes(3, () => user.username);
    });

    it('answers 429 with Retry-After once the limit is reached, even with the right password', async () => {
      const response = await passwordGrant(user.username, user.password).expect(429);

      expect(response.body).toEqual({ error: 'too_many_requests', error_description: TOO_MANY_FOR_NAME, message: TOO_MANY_FOR_NAME });
      const retryAfter = Number(response.headers['retry-after']);
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThan(590);
      expect(retryAfter).toBeLessThanOrEqual(600);
    });

    it('counts the name whatever its letter case', async () => {
      await passwordGrant(user.username.toUpperCase(), user.password).expect(429);
    });

    it('does not count the refused attempts as further failures', async () => {
      await passwordGrant(user.username, user.password).expect(429);

      expect(await testApp.dataSource.getRepository(LoginFailureEntity).count()).toBe(3);
    });

    it('leaves other user names alone', async () => {
      const other = await createUser(testApp.app);

      await passwordGrant(other.username, other.password).expect(200);
    });

    it('lets the user in again once the window has passed', async () => {
      await ageFailures(601);

      await passwordGrant(user.username, user.password).expect(200);
    });
  });

  describe('per client address', () => {
    it('answers 429 for any name from an address that reached the limit', async () => {
      await failTimes(5, (attempt) => `guess-${attempt}`);
      const user = await createUser(testApp.app);

      const response = await passwordGrant(user.username, user.password).expect(429);

      expect(response.body).toEqual({
        error: 'too_many_requests',
        error_description: TOO_MANY_FROM_ADDRESS,
        message: TOO_MANY_FROM_ADDRESS,
      });
      expect(Number(response.headers['retry-after'])).toBeGreaterThan(110);
      expect(Number(response.headers['retry-after'])).toBeLessThanOrEqual(120);
    });

    it('tells the caller when the address may try again, from the oldest failure still counted', async () => {
      await failTimes(5, (attempt) => `guess-${attempt}`);
      await ageFailures(100);

      const response = await passwordGrant('anyone', 'anything').expect(429);

      expect(Number(response.headers['retry-after'])).toBeGreaterThanOrEqual(19);
      expect(Number(response.headers['retry-after'])).toBeLessThanOrEqual(21);
    });

    it('lets the address in again once the window has passed', async () => {
      await failTimes(5, (attempt) => `guess-${attempt}`);
      await ageFailures(121);
      const user = await createUser(testApp.app);

      await passwordGrant(user.username, user.password).expect(200);
    });
  });
});
