import request from 'supertest';
import { AuthHousekeepingService } from '../src/auth/token-endpoint/auth-housekeeping.service.js';
import { LoginFailureEntity } from '../src/auth/token-endpoint/login-failure.entity.js';
import { AccessTokenEntity } from '../src/auth/tokens/access-token.entity.js';
import { RefreshTokenEntity } from '../src/auth/tokens/refresh-token.entity.js';
import { oauthErrorStub } from './fixtures/oauth-errors.stub.js';
import {
  AuthProbeController,
  createClient,
  createUser,
  obtainTokens,
  PROBE_ANY,
  TOKEN_PATH,
  type TestClient,
  type TestUser,
} from './utils/auth-fixtures.js';
import { FakeClock } from './utils/fake-clock.js';
import { createTestApp, TestApp } from './utils/test-app.js';
import { until } from './utils/until.js';

/** The longest flood window (LOGIN_FAILURE_USERNAME_WINDOW's default) and REFRESH_TOKEN_TTL's default, in ms. */
const LONGEST_FLOOD_WINDOW_MS = 21_600_000;
const REFRESH_TOKEN_TTL_MS = 1_209_600_000;
const DAY_MS = 86_400_000;

/**
 * Pruning (every TOKEN_PRUNE_INTERVAL seconds, here 1) by the one clock tokens are issued and verified
 * by: the tests move it rather than wait, and whatever it says is still alive stays.
 */
describe('Pruning of old tokens and login failures', () => {
  const saved = { ...process.env };
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
  const answers = async (accessToken: string) =>
    (await request(testApp.app.getHttpServer()).get(PROBE_ANY).set('Authorization', `Bearer ${accessToken}`)).status;
  const count = (entity: typeof AccessTokenEntity | typeof RefreshTokenEntity | typeof LoginFailureEntity) =>
    testApp.dataSource.getRepository(entity).count();

  beforeAll(async () => {
    process.env.TOKEN_PRUNE_INTERVAL = '1';
    testApp = await createTestApp({ override: clock.install, controllers: [AuthProbeController] });
  });

  beforeEach(async () => {
    await testApp.reset();
    client = await createClient(testApp.app);
    user = await createUser(testApp.app);
  });

  afterAll(async () => {
    await testApp.close();
    process.env = { ...saved };
  });

  it('runs on its schedule: drops expired access tokens and old failures, and keeps used refresh tokens so reuse is still caught', async () => {
    const first = await obtainTokens(testApp.app, client, user);
    const rotated = (await refresh(first.refresh_token).expect(200)).body;
    await failedGrant();
    clock.advance(LONGEST_FLOOD_WINDOW_MS + 1000);
    const latest = await obtainTokens(testApp.app, client, user);

    // Only the latest grant's access token is still alive at the clock's time; the two before it expired.
    await until(async () => (await count(AccessTokenEntity)) === 1 && (await count(LoginFailureEntity)) === 0);
    expect(await answers(latest.access_token)).toBe(200);
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

  it('never deletes a token the clock says is alive, however far the clock has moved', async () => {
    const before = await obtainTokens(testApp.app, client, user);
    clock.advance(400 * DAY_MS);
    const after = await obtainTokens(testApp.app, client, user);

    // The token of 400 days ago is gone at the schedule's next prune; the one issued since stays and is accepted.
    await until(async () => (await count(AccessTokenEntity)) === 1);
    expect(await answers(after.access_token)).toBe(200);
    expect(await answers(before.access_token)).toBe(403);
    await refresh(after.refresh_token).expect(200);
  });
});
