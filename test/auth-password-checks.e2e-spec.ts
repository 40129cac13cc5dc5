import { setTimeout as delay } from 'node:timers/promises';
import request from 'supertest';
import { LoginFailureEntity } from '../src/auth/token-endpoint/login-failure.entity.js';
import { PasswordHasher } from '../src/auth/users/password-hasher.js';
import { createClient, createUser, TOKEN_PATH, type TestClient, type TestUser } from './utils/auth-fixtures.js';
import { createTestApp, TestApp } from './utils/test-app.js';
import { until } from './utils/until.js';

const BUSY = 'The server is busy checking other passwords. Try again shortly.';

/**
 * An application that runs one password check at a time and lets one more wait (with `env` beside),
 * and a client and a user made afresh for each test; `passwordGrant` asks for the user's tokens.
 */
function onePlaceForChecks(env: Record<string, string> = {}) {
  const saved = { ...process.env };
  const stand = {} as { testApp: TestApp; client: TestClient; user: TestUser };

  beforeAll(async () => {
    Object.assign(process.env, { PASSWORD_CHECKS_IN_FLIGHT: '1', PASSWORD_CHECK_QUEUE: '1', ...env });
    stand.testApp = await createTestApp();
  });

  beforeEach(async () => {
    await stand.testApp.reset();
    stand.client = await createClient(stand.testApp.app);
    stand.user = await createUser(stand.testApp.app);
  });

  afterAll(async () => {
    await stand.testApp.close();
    process.env = { ...saved };
  });

  const passwordGrant = (password = stand.user.password) =>
    request(stand.testApp.app.getHttpServer()).post(TOKEN_PATH).type('form').send({
      grant_type: 'password',
      client_id: stand.client.clientId,
      client_secret: stand.client.clientSecret,
      username: stand.user.username,
      password,
    });
  return { stand, passwordGrant };
}

/**
 * Password checks are the expensive part of a grant, so each instance runs only a few at once and
 * lets a few more wait; beyond that a grant is answered 503 at once rather than queued without end.
 */
describe('Token endpoint: password checks in flight', () => {
  const { stand, passwordGrant } = onePlaceForChecks();

  /** Takes every place and every waiting spot with checks that end only when the test says so. */
  const occupyEveryPlace = (places: number) => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const checks = stand.testApp.app.get(PasswordHasher).checks;
    const occupied = Array.from({ length: places }, () => checks.run(() => held));
    return async () => {
      release();
      await Promise.all(occupied);
    };
  };

  it('answers 503 with Retry-After while every place and the waiting line are taken, and counts no failure', async () => {
    const releaseAll = occupyEveryPlace(2);

    const response = await passwordGrant().expect(503);

    expect(response.headers['retry-after']).toBe('1');
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.body).toEqual({ error: 'temporarily_unavailable', error_description: BUSY, message: BUSY });
    expect(await stand.testApp.dataSource.getRepository(LoginFailureEntity).count()).toBe(0);
    await releaseAll();
    await passwordGrant().expect(200);
  });

  it('lets a grant wait for a place while the line has room', async () => {
    const releaseAll = occupyEveryPlace(1);
    const checks = stand.testApp.app.get(PasswordHasher).checks;

    const answered = passwordGrant().then((response) => response.status);
    await until(() => checks.queued === 1);
    await releaseAll();

    expect(await answered).toBe(200);
  });

  it('counts the refusals as outcome "busy" in the grant metrics', async () => {
    const before = await busyGrants();
    const releaseAll = occupyEveryPlace(2);
    await passwordGrant().expect(503);
    await releaseAll();

    expect(await busyGrants()).toBe(before + 1);
  });

  async function busyGrants(): Promise<number> {
    const metrics = await request(stand.testApp.app.getHttpServer()).get('/metrics').expect(200);
    const line = /^oauth_token_grants_total\{grant_type="password",outcome="busy"\} (\d+)$/m.exec(metrics.text);
    return line ? Number(line[1]) : 0;
  }
});

/**
 * A password check can end after its request's database deadline (it waited its turn in the line).
 * What the check decided is still written: a wrong password counts as a failure, and the check's
 * pending row never outlives it to count against the name for PENDING_CHECK_SECONDS
 * (docs/interface.md#failed-login-limits). The budget bounds each statement on MySQL; on SQLite it
 * bounds transactions only, so there these writes would go through either way.
 */
describe('Token endpoint: a password check that ends after its database deadline', () => {
  const DEADLINE_MS = 500;
  const { stand, passwordGrant } = onePlaceForChecks({ DB_REQUEST_TIMEOUT_MS: String(DEADLINE_MS) });

  /** Sends the grant while the one place is held, and lets its check run only once its deadline has passed. */
  const checkedAfterDeadline = async (password: string) => {
    let release!: () => void;
    const checks = stand.testApp.app.get(PasswordHasher).checks;
    const held = checks.run(() => new Promise<void>((resolve) => (release = resolve)));
    const answered = passwordGrant(password).then(({ status, body }) => ({ status, body }));
    await until(() => checks.queued === 1);
    // The budget started with the slot's row, before the check queued.
    await delay(DEADLINE_MS + 100);
    release();
    await held;
    return answered;
  };

  const loginRows = () => stand.testApp.dataSource.getRepository(LoginFailureEntity).find();

  it('counts a wrong password as a failure and answers invalid_grant', async () => {
    const response = await checkedAfterDeadline('not the password');

    expect(response.status).toBe(400);
    expect(response.body.error).toBe('invalid_grant');
    expect(await loginRows()).toEqual([expect.objectContaining({ username: stand.user.username.toLowerCase(), pending: false })]);
  });

  it('leaves no pending row behind a right password', async () => {
    await checkedAfterDeadline(stand.user.password);

    expect(await loginRows()).toEqual([]);
  });
});
