import { jest } from '@jest/globals';
import request from 'supertest';
import { AuthHousekeepingService } from '../src/auth/token-endpoint/auth-housekeeping.service.js';
import { LoginFailureEntity } from '../src/auth/token-endpoint/login-failure.entity.js';
import { AccessTokenEntity } from '../src/auth/tokens/access-token.entity.js';
import { RefreshTokenEntity } from '../src/auth/tokens/refresh-token.entity.js';
import { oauthErrorStub } from './fixtures/oauth-errors.stub.js';
import { createClient, createUser, obtainTokens, TOKEN_PATH, type TestClient, type TestUser } from './utils/auth-fixtures.js';
import { FakeClock } from './utils/fake-clock.js';
import { createTestApp, TestApp } from './utils/test-app.js';

/** The longest flood window (LOGIN_FAILURE_USERNAME_WINDOW's default) and REFRESH_TOKEN_TTL's default, in ms. */
const LONGEST_FLOOD_WINDOW_MS = 21_600_000;
const REFRESH_TOKEN_TTL_MS = 1_209_600_000;

describe('Pruning of old tokens and login failures', () => {
  const clock = new FakeClock();
  let testApp: TestApp;
  let client: TestClient;
  let user: TestUser;

  const refresh = (refreshToken: string) =>
    request(testApp.app.getHttpServer())
      .post(TOKEN_PATH)
      .type('form')
      .send({ grant_type: 'refresh_token', client_id: client.clientId, client_secret: client.clientSecret, refresh_token: refreshToken });
  const failedGrant = () =>
    request(testApp.app.getHttpServer())
      .post(TOKEN_PATH)
      .type('form')
      .send({
        grant_type: 'password',
        client_id: client.clientId,
        client_secret: client.clientSecret,
        username: user.username,
        password: 'wrong',
      })
      .expect(400);
  const count = (entity: typeof AccessTokenEntity | typeof RefreshTokenEntity | typeof LoginFailureEntity) =>
    testApp.dataSource.getRepository(entity).count();

  beforeAll(async () => {
    testApp = await createTestApp({ override: clock.install });
  });

  beforeEach(async () => {
    await testApp.reset();
    client = await createClient(testApp.app);
    user = await createUser(testApp.app);
  });

  afterEach(() => {
    jest.restoreAllMocks();
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('runs from a password grant, drops expired access tokens and old failures, and keeps used refresh tokens so reuse is still caught', async () => {
    const first = await obtainTokens(testApp.app, client, user);
    const rotated = (await refresh(first.refresh_token).expect(200)).body;
    await failedGrant();
    clock.advance(LONGEST_FLOOD_WINDOW_MS + 1000);

    // Pruning runs on about one password grant in twenty, drawn with Math.random: this one draws it.
    jest.spyOn(Math, 'random').mockReturnValue(0);
    const latest = await obtainTokens(testApp.app, client, user);
    jest.restoreAllMocks();

    expect(await count(LoginFailureEntity)).toBe(0);
    // Only the latest grant's access token is still alive at the clock's time; the two before it expired.
    expect(await count(AccessTokenEntity)).toBe(1);
    expect(await count(RefreshTokenEntity)).toBe(3);
    expect((await refresh(first.refresh_token).expect(400)).body).toEqual(oauthErrorStub.invalidRefreshToken('Token has been revoked'));
    expect((await refresh(rotated.refresh_token).expect(400)).body).toEqual(oauthErrorStub.invalidRefreshToken('Token has been revoked'));
    await refresh(latest.refresh_token).expect(200);
  });

  it('keeps login failures still inside a window', async () => {
    await failedGrant();
    clock.advance(LONGEST_FLOOD_WINDOW_MS - 1000);

    await testApp.app.get(AuthHousekeepingService).prune();

    expect(await count(LoginFailureEntity)).toBe(1);
  });

  it('forgets a refresh token only once it has been expired for as long as a refresh token lives', async () => {
    const first = await obtainTokens(testApp.app, client, user);
    await refresh(first.refresh_token).expect(200);
    const rows = await testApp.dataSource.getRepository(RefreshTokenEntity).find();
    const lastExpiry = Math.max(...rows.map((row) => row.expiresAt.getTime()));
    const housekeeping = testApp.app.get(AuthHousekeepingService);

    clock.advance(lastExpiry + REFRESH_TOKEN_TTL_MS - 1000 - clock.now());
    await housekeeping.prune();
    expect(await count(RefreshTokenEntity)).toBe(2);

    clock.advance(2000);
    await housekeeping.prune();
    expect(await count(RefreshTokenEntity)).toBe(0);
  });
});
