import { jest } from '@jest/globals';
import { createHash } from 'node:crypto';
import request from 'supertest';
import { PasswordHasher } from '../src/auth/users/password-hasher.js';
import { oauthErrorStub } from './fixtures/oauth-errors.stub.js';
import { createClient, createUser, obtainTokens, TOKEN_PATH, type TestClient, type TestUser } from './utils/auth-fixtures.js';
import { closeInstances, rowsOnEachNode, startInstances, type ClusterInstance } from './utils/galera.js';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/**
 * Tokens with three instances, each on its own node of a Galera cluster (`npm run test:galera`): the
 * rules that hold between instances on one server (test/multi-instance.e2e-spec.ts) hold between
 * nodes, where two conflicting writes both succeed locally and one fails at COMMIT.
 */
describe('Tokens on a Galera cluster, one instance per node', () => {
  const saved = { ...process.env };
  let instances: ClusterInstance[];
  let client: TestClient;

  const refresh = (instance: ClusterInstance, refreshToken: string) =>
    request(instance.server).post(TOKEN_PATH).type('form').send({
      grant_type: 'refresh_token',
      client_id: client.clientId,
      client_secret: client.clientSecret,
      refresh_token: refreshToken,
    });
  const passwordGrant = (instance: ClusterInstance, user: TestUser, password = user.password) =>
    request(instance.server).post(TOKEN_PATH).type('form').send({
      grant_type: 'password',
      client_id: client.clientId,
      client_secret: client.clientSecret,
      username: user.username,
      password,
    });
  const familyOf = async (refreshToken: string) =>
    (
      await rowsOnEachNode<{ family_id: string }>('SELECT family_id FROM oauth_refresh_tokens WHERE token_hash = ?', [sha256(refreshToken)])
    )[0]![0]!.family_id;

  beforeAll(async () => {
    process.env.LOGIN_FAILURES_PER_USERNAME = '3';
    instances = await startInstances();
  }, 120_000);

  beforeEach(async () => {
    await instances[0]!.app.reset();
    client = await createClient(instances[0]!.app.app);
  });

  afterEach(() => {
    jest.restoreAllMocks();
  });

  afterAll(async () => {
    await closeInstances(instances);
    process.env = { ...saved };
  });

  it('lets exactly one of three refreshes of one token, one to each instance at once, win, ten times over', async () => {
    for (let round = 0; round < 10; round++) {
      const pair = await obtainTokens(instances[round % 3]!.app.app, client, await createUser(instances[0]!.app.app));

      const answers = await Promise.all(instances.map((instance) => refresh(instance, pair.refresh_token)));

      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400, 400]);
      for (const loser of answers.filter((answer) => answer.status === 400)) {
        expect(loser.body).toEqual(oauthErrorStub.invalidRefreshToken('Token has been revoked'));
      }
      // A used token came back, so its family (the winner's new pair too) is revoked, on every node.
      const family = await familyOf(pair.refresh_token);
      for (const rows of await rowsOnEachNode<{ revoked: number }>('SELECT revoked FROM oauth_refresh_tokens WHERE family_id = ?', [
        family,
      ])) {
        expect(rows.length).toBeGreaterThanOrEqual(2);
        expect(rows.every((row) => Number(row.revoked) === 1)).toBe(true);
      }
    }
  });

  it('revokes the family when a token rotated through one instance comes back through another, at once', async () => {
    for (let round = 0; round < 10; round++) {
      const pair = await obtainTokens(instances[0]!.app.app, client, await createUser(instances[0]!.app.app));
      const rotated = await refresh(instances[round % 3]!, pair.refresh_token).expect(200);

      const reused = await refresh(instances[(round + 1) % 3]!, pair.refresh_token);

      expect(reused.status).toBe(400);
      expect(reused.body).toEqual(oauthErrorStub.invalidRefreshToken('Token has been revoked'));
      // The pair the rotation handed out is revoked with it, whichever instance it is presented to.
      const after = await refresh(instances[(round + 2) % 3]!, (rotated.body as { refresh_token: string }).refresh_token);
      expect(after.status).toBe(400);
      expect(after.body).toEqual(oauthErrorStub.invalidRefreshToken('Token has been revoked'));
    }
  });

  it('checks the per-name limit of passwords, no more, when 30 wrong grants for one name reach the three instances at once', async () => {
    const user = await createUser(instances[0]!.app.app);
    const checks = instances.map((instance) => jest.spyOn(instance.app.app.get(PasswordHasher), 'verify'));

    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => passwordGrant(instances[i % 3]!, user, `guess ${i}`)));

    const statuses = answers.map((answer) => answer.status);
    // The first three to arrive are checked; the others step back for them (docs/interface.md#failed-login-limits).
    expect(statuses.filter((status) => status === 400).length).toBe(3);
    // The rest are refused unchecked: 429 once failures reach the limit, or, while checks on the
    // instances still run, the overflow answer (503 temporarily_unavailable, Retry-After: 1).
    const unchecked = answers.filter((answer) => answer.status !== 400 && answer.status !== 429);
    expect(unchecked.map((answer) => [answer.status, answer.body.error, answer.headers['retry-after']])).toEqual(
      unchecked.map(() => [503, 'temporarily_unavailable', '1']),
    );
    expect(checks.reduce((sum, check) => sum + check.mock.calls.length, 0)).toBe(statuses.filter((status) => status === 400).length);
    // Every instance now refuses the name, even with the right password.
    for (const instance of instances) await passwordGrant(instance, user).expect(429);
  });
});
