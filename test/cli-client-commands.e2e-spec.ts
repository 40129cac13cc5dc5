import request from 'supertest';
import { TOKEN_STATE_CACHE_MS } from '../src/auth/bearer/token-state.service.js';
import { ClientsService } from '../src/auth/clients/clients.service.js';
import { OAuthClientEntity } from '../src/auth/clients/oauth-client.entity.js';
import { AccessTokenEntity } from '../src/auth/tokens/access-token.entity.js';
import { RefreshTokenEntity } from '../src/auth/tokens/refresh-token.entity.js';
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
  createPublicClient,
  createUser,
  obtainTokens,
  PROBE_ANY,
  TOKEN_PATH,
  type TestClient,
  type TestUser,
} from './utils/auth-fixtures.js';
import { createTestApp, TestApp } from './utils/test-app.js';

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/** client:create, client:list and client:delete, run as the command line runs them: services of their own on the same database. */
describe('Administration commands for clients', () => {
  let testApp: TestApp;
  const clock = new FakeClock();
  let cli: CliServices;

  const server = () => testApp.app.getHttpServer();
  const grant = (client: TestClient, fields: Record<string, string>) =>
    request(server())
      .post(TOKEN_PATH)
      .type('form')
      .send({ client_id: client.clientId, client_secret: client.clientSecret, ...fields });
  const passwordGrant = (client: TestClient, user: TestUser) =>
    grant(client, { grant_type: 'password', username: user.username, password: user.password });
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
  });

  afterAll(async () => {
    await testApp.close();
  });

  describe('client:create', () => {
    it.each([
      ['a carriage return', 'a\rb'],
      ['a tab', 'a\tb'],
      ['a C0 control', 'a\u0001b'],
    ])('refuses a label with %s, as integration:create does, and stores no client', async (_, label) => {
      for (const kind of [[], ['--public']]) {
        await expect(runCommand(['client:create', '--label', label, ...kind], cli)).rejects.toThrow(
          new CliError('The label must be 1 to 255 characters without control characters.'),
        );
      }
      await expect(testApp.dataSource.getRepository(OAuthClientEntity).count()).resolves.toBe(0);
    });

    it('stores the label trimmed', async () => {
      await runCommand(['client:create', '--label', ' Trap fleet '], cli);

      expect(await testApp.dataSource.query('SELECT label FROM oauth_clients')).toEqual([{ label: 'Trap fleet' }]);
    });
  });

  describe('client:list', () => {
    it('lists every client, oldest first, without secrets', async () => {
      const fleet = await createClient(testApp.app, { label: 'Trap fleet' });
      const lab = await createClient(testApp.app, { label: 'Test bench' });
      const tablet = await createPublicClient(testApp.app, { label: 'Field tablet' });

      const printed = await runCommand(['client:list'], cli);

      expect(printed).toEqual({
        clients: [
          { client_id: fleet.clientId, label: 'Trap fleet', public: false, created: expect.stringMatching(INSTANT) },
          { client_id: lab.clientId, label: 'Test bench', public: false, created: expect.stringMatching(INSTANT) },
          { client_id: tablet, label: 'Field tablet', public: true, created: expect.stringMatching(INSTANT) },
        ],
      });
      expect(JSON.stringify(printed)).not.toContain(fleet.clientSecret);
    });

    it('prints an empty list when there are no clients', async () => {
      await expect(runCommand(['client:list'], cli)).resolves.toEqual({ clients: [] });
    });
  });

  describe('client:delete', () => {
    it('removes the client and its tokens: refresh and password grants refused at once, access tokens within 5 s even when just checked', async () => {
      const client = await createClient(testApp.app);
      const other = await createClient(testApp.app);
      const user = await createUser(testApp.app);
      const tokens = await obtainTokens(testApp.app, client, user);
      const kept = await obtainTokens(testApp.app, other, user);
      // The service has just authenticated the client and checked the token: both sit in its caches.
      await probe(tokens.access_token).expect(200);

      const printed = await runCommand(['client:delete', '--client-id', client.clientId], cli);

      expect(printed).toEqual({ client_id: client.clientId, status: 'deleted', revoked_tokens: 2 });
      expect(await testApp.dataSource.getRepository(OAuthClientEntity).countBy({ clientId: client.clientId })).toBe(0);
      expect(await testApp.dataSource.getRepository(RefreshTokenEntity).countBy({ clientId: client.clientId })).toBe(0);
      expect(await testApp.dataSource.getRepository(AccessTokenEntity).countBy({ clientId: client.clientId })).toBe(0);
      expect((await grant(client, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token }).expect(400)).body.error).toBe(
        'invalid_grant',
      );
      expect((await passwordGrant(client, user).expect(401)).body).toEqual(oauthErrorStub.invalidClient);
      clock.advance(TOKEN_STATE_CACHE_MS);
      await probe(tokens.access_token).expect(403);
      await probe(kept.access_token).expect(200);
      await passwordGrant(other, user).expect(200);
    });

    it('refuses an unknown client', async () => {
      await expect(runCommand(['client:delete', '--client-id', 'no-such-client'], cli)).rejects.toThrow(
        new CliError('There is no client with the id "no-such-client".'),
      );
    });
  });
});
