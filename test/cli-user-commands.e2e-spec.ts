import request from 'supertest';
import { ClientsService } from '../src/auth/clients/clients.service.js';
import { OAuthClientEntity } from '../src/auth/clients/oauth-client.entity.js';
import { TOKEN_STATE_CACHE_MS } from '../src/auth/bearer/token-state.service.js';
import { PasswordHasher } from '../src/auth/users/password-hasher.js';
import { UserEntity } from '../src/auth/users/user.entity.js';
import { UsersService } from '../src/auth/users/users.service.js';
import { CliError } from '../src/common/cli/cli-error.js';
import { runCommand, type CliServices } from '../src/cli/commands.js';
import { oauthErrorStub } from './fixtures/oauth-errors.stub.js';
import { FakeClock } from './utils/fake-clock.js';
import {
  AuthProbeController,
  createClient,
  createUser,
  obtainTokens,
  PROBE_ANY,
  TOKEN_PATH,
  type TestClient,
} from './utils/auth-fixtures.js';
import { createTestApp, TestApp } from './utils/test-app.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/** user:unblock, user:list and user:password, run as the command line runs them: services of their own on the same database. */
describe('Administration commands for users', () => {
  let testApp: TestApp;
  const clock = new FakeClock();
  let cli: CliServices;
  let client: TestClient;

  const server = () => testApp.app.getHttpServer();
  const passwordGrant = (username: string, password: string) =>
    request(server())
      .post(TOKEN_PATH)
      .type('form')
      .send({ grant_type: 'password', client_id: client.clientId, client_secret: client.clientSecret, username, password });
  const refreshGrant = (refreshToken: string) =>
    request(server())
      .post(TOKEN_PATH)
      .type('form')
      .send({ grant_type: 'refresh_token', client_id: client.clientId, client_secret: client.clientSecret, refresh_token: refreshToken });
  const probe = (accessToken: string) => request(server()).get(PROBE_ANY).set('Authorization', `Bearer ${accessToken}`);

  beforeAll(async () => {
    testApp = await createTestApp({ controllers: [AuthProbeController], override: clock.install });
    cli = {
      users: new UsersService(testApp.dataSource.getRepository(UserEntity), new PasswordHasher()),
      clients: new ClientsService(testApp.dataSource.getRepository(OAuthClientEntity)),
    };
  });

  beforeEach(async () => {
    await testApp.reset();
    client = await createClient(testApp.app);
  });

  afterAll(async () => {
    await testApp.close();
  });

  describe('user:unblock', () => {
    it('lets a blocked user obtain tokens again', async () => {
      const user = await createUser(testApp.app, { username: 'lost-device' });
      await runCommand(['user:block', '--username', 'lost-device'], cli);
      expect((await passwordGrant('lost-device', user.password).expect(400)).body).toEqual(oauthErrorStub.invalidCredentials);
      // Only the wrong password counts as a failed login, not the blocked user's right one.
      expect((await passwordGrant('lost-device', 'a wrong guess').expect(400)).body).toEqual(oauthErrorStub.invalidCredentials);

      const printed = await runCommand(['user:unblock', '--username', 'LOST-DEVICE'], cli);

      expect(printed).toEqual({ uid: user.uid, status: 'active', failed_logins_forgotten: 1 });
      expect((await testApp.dataSource.getRepository(UserEntity).findOneByOrFail({ uid: user.uid })).status).toBe(true);
      await passwordGrant('lost-device', user.password).expect(200);
    });

    it("lifts the failed-login limit of a name that someone else's guesses locked, whatever its spelling", async () => {
      const user = await createUser(testApp.app, { username: 'trap-gateway' });
      for (let attempt = 1; attempt <= 5; attempt++) await passwordGrant('Trap-Gateway', `guess-${attempt}`).expect(400);
      await passwordGrant('trap-gateway', user.password).expect(429);

      const printed = await runCommand(['user:unblock', '--username', 'trap-gateway'], cli);

      expect(printed).toEqual({ uid: user.uid, status: 'active', failed_logins_forgotten: 5 });
      await passwordGrant('trap-gateway', user.password).expect(200);
    });

    it('refuses an unknown user', async () => {
      await expect(runCommand(['user:unblock', '--username', 'ghost'], cli)).rejects.toThrow(
        new CliError('There is no user named "ghost".'),
      );
    });
  });

  describe('user:list', () => {
    it('lists every user, oldest first, with status and ingest permission, and no password hash', async () => {
      const gateway = await createUser(testApp.app, { username: 'gateway-01' });
      const reader = await createUser(testApp.app, { username: 'reader', ingest: false });
      await runCommand(['user:block', '--username', 'reader'], cli);

      const printed = await runCommand(['user:list'], cli);

      expect(printed).toEqual({
        users: [
          {
            uid: gateway.uid,
            uuid: gateway.uuid,
            name: 'gateway-01',
            status: 'active',
            may_ingest: true,
            created: expect.stringMatching(INSTANT),
          },
          {
            uid: reader.uid,
            uuid: reader.uuid,
            name: 'reader',
            status: 'blocked',
            may_ingest: false,
            created: expect.stringMatching(INSTANT),
          },
        ],
      });
      expect(gateway.uuid).toMatch(UUID);
      expect(JSON.stringify(printed)).not.toContain('argon2');
    });

    it('prints an empty list when there are no users', async () => {
      await expect(runCommand(['user:list'], cli)).resolves.toEqual({ users: [] });
    });
  });

  describe('user:password', () => {
    it('sets a new password: the new one obtains tokens, the old one no longer does', async () => {
      const user = await createUser(testApp.app, { username: 'gateway-02' });

      const printed = await runCommand(['user:password', '--username', 'gateway-02', '--password', 'a brand new passphrase'], cli);

      expect(printed).toEqual({ uid: user.uid, revoked_tokens: 0 });
      expect((await passwordGrant('gateway-02', user.password).expect(400)).body).toEqual(oauthErrorStub.invalidCredentials);
      await passwordGrant('gateway-02', 'a brand new passphrase').expect(200);
    });

    it('revokes every token the user holds: refresh tokens at once, access tokens within 5 s even when just checked', async () => {
      const user = await createUser(testApp.app, { username: 'gateway-03' });
      const first = await obtainTokens(testApp.app, client, user);
      const second = await obtainTokens(testApp.app, client, user);
      // Both access tokens have just been checked: their state sits in the bearer check's cache.
      await probe(first.access_token).expect(200);
      await probe(second.access_token).expect(200);

      const printed = await runCommand(['user:password', '--username', 'gateway-03', '--password', 'another long passphrase'], cli);

      expect(printed).toEqual({ uid: user.uid, revoked_tokens: 4 });
      expect((await refreshGrant(first.refresh_token).expect(400)).body).toEqual(
        oauthErrorStub.invalidRefreshToken('Token has been revoked'),
      );
      clock.advance(TOKEN_STATE_CACHE_MS);
      await probe(first.access_token).expect(403);
      await probe(second.access_token).expect(403);
      expect(TOKEN_STATE_CACHE_MS).toBeLessThan(5000);
    });

    it('refuses a trivially weak password, stating the rule, and keeps the old one', async () => {
      const user = await createUser(testApp.app, { username: 'gateway-04' });

      for (const password of ['too short', '0000000000000', 'GATEWAY-04']) {
        await expect(runCommand(['user:password', '--username', 'gateway-04', '--password', password], cli)).rejects.toThrow(
          new CliError('The password must be at least 10 characters long, not one character repeated, and not the user name.'),
        );
      }
      await passwordGrant('gateway-04', user.password).expect(200);
    });

    it('refuses an unknown user', async () => {
      await expect(runCommand(['user:password', '--username', 'ghost', '--password', 'a long passphrase'], cli)).rejects.toThrow(
        new CliError('There is no user named "ghost".'),
      );
    });
  });
});
