import { jest } from '@jest/globals';
import request from 'supertest';
import { ClientsService } from '../src/auth/clients/clients.service.js';
import { LoginFailureEntity } from '../src/auth/token-endpoint/login-failure.entity.js';
import { UsersService } from '../src/auth/users/users.service.js';
import { runCommand } from '../src/cli/commands.js';
import { LOG_DESTINATION } from '../src/logging/logging.module.js';
import { oauthErrorStub } from './fixtures/oauth-errors.stub.js';
import { createClient, createUser, TOKEN_PATH, type TestClient, type TestUser } from './utils/auth-fixtures.js';
import { createTestApp, TestApp } from './utils/test-app.js';

const INVALID_NAME = 'The user name must be 1 to 60 characters without control characters.';

/**
 * User names match without regard to letter case, and otherwise exactly: on MySQL the column's
 * collation (utf8mb4_unicode_ci) also equates fullwidth letters, trailing spaces and some control
 * characters, which must not let one name stand for another. Every case runs on both engines.
 */
describe('User names', () => {
  const saved = { ...process.env };
  const written: string[] = [];
  let testApp: TestApp;
  let client: TestClient;
  let alice: TestUser;

  const passwordGrant = (username: string, password = alice.password) =>
    request(testApp.app.getHttpServer()).post(TOKEN_PATH).type('form').send({
      grant_type: 'password',
      client_id: client.clientId,
      client_secret: client.clientSecret,
      username,
      password,
    });
  const storedFailures = () => testApp.dataSource.getRepository(LoginFailureEntity).find();

  beforeAll(async () => {
    process.env.LOG_LEVEL = 'trace';
    testApp = await createTestApp({
      override: (builder) => builder.overrideProvider(LOG_DESTINATION).useValue({ write: (line: string) => written.push(line) }),
    });
  });

  beforeEach(async () => {
    await testApp.reset();
    client = await createClient(testApp.app);
    alice = await createUser(testApp.app, { username: 'alice', password: 'the right passphrase' });
    written.length = 0;
  });

  afterEach(() => {
    jest.restoreAllMocks();
  });

  afterAll(async () => {
    await testApp.close();
    process.env = { ...saved };
  });

  describe('at the token endpoint', () => {
    it.each(['alice', 'ALICE', 'Alice'])('lets %s in as alice', async (name) => {
      await passwordGrant(name).expect(200);
    });

    it.each([
      ['in fullwidth letters', 'ａｌｉｃｅ'],
      ['with a trailing space', 'alice '],
      ['with a soft hyphen', 'al\u00adice'],
      ['with a combining accent', 'alice\u0301'],
    ])('does not let alice %s in, even with her password', async (_case, name) => {
      const response = await passwordGrant(name).expect(400);

      expect(response.body).toEqual(oauthErrorStub.invalidCredentials);
    });

    it.each([
      ['NUL', 'alice\0'],
      ['a line break', 'alice\nadmin'],
      ['DEL', 'alice\u007f'],
      ['a C1 control', 'alice\u0085'],
    ])('refuses a name with %s as invalid_request naming username, counting no failure', async (_case, name) => {
      const response = await passwordGrant(name).expect(400);

      expect(response.body).toEqual(oauthErrorStub.invalidRequest('username'));
      expect(await storedFailures()).toEqual([]);
    });

    it('takes a name of 60 characters, counted as characters rather than UTF-16 units', async () => {
      const response = await passwordGrant('🐀'.repeat(60)).expect(400);

      expect(response.body).toEqual(oauthErrorStub.invalidCredentials);
      expect(await storedFailures()).toEqual([expect.objectContaining({ username: '🐀'.repeat(60) })]);
    });

    it('refuses a name over 60 characters as invalid_request without asking the users or failures tables', async () => {
      const queries = jest.spyOn(testApp.dataSource.logger, 'logQuery');
      const statementsOnAccounts = () => queries.mock.calls.map(([sql]) => sql).filter((sql) => /users|login_failures/.test(sql));
      // The control: a name of the greatest length is looked up, and its failure counted.
      await passwordGrant('🐀'.repeat(60)).expect(400);
      expect(statementsOnAccounts().length).toBeGreaterThan(0);
      queries.mockClear();

      const response = await passwordGrant('🐀'.repeat(61)).expect(400);

      expect(response.body).toEqual(oauthErrorStub.invalidRequest('username'));
      expect(statementsOnAccounts()).toEqual([]);
    });
  });

  describe('in log lines', () => {
    it('logs the name of a failed grant', async () => {
      await passwordGrant('nobody-by-this-name', 'guess').expect(400);

      expect(written.join('')).toContain('Failed password grant for \\"nobody-by-this-name\\"');
    });

    it('never logs more than 60 characters of a name, however long the name sent', async () => {
      const huge = `${'n'.repeat(59)}${'x'.repeat(60_000)}`;

      await passwordGrant(huge, 'guess').expect(400);
      await passwordGrant(`${'n'.repeat(60)}`, 'guess').expect(400);

      const everything = written.join('');
      expect(everything).toContain('n'.repeat(60));
      expect(everything).not.toContain(`${'n'.repeat(59)}x`);
    });
  });

  describe('in the administration commands', () => {
    const services = () => ({ users: testApp.app.get(UsersService), clients: testApp.app.get(ClientsService) });

    it.each([
      ['in fullwidth letters', 'ａｌｉｃｅ'],
      ['with a trailing space', 'alice '],
    ])('does not block alice for her name %s', async (_case, name) => {
      await expect(runCommand(['user:block', '--username', name], services())).rejects.toThrow(/^There is no user named /);

      await passwordGrant('alice').expect(200);
    });

    it('blocks alice by her name in capitals', async () => {
      await runCommand(['user:block', '--username', 'ALICE'], services());

      await passwordGrant('alice').expect(400);
    });

    it.each([
      ['user:create', 'NUL', 'alice\0', ['--password', 'pw']],
      ['user:create', '61 characters', 'x'.repeat(61), ['--password', 'pw']],
      ['user:block', 'NUL', 'alice\0', []],
      ['user:block', 'a C1 control', 'alice\u0085', []],
      ['user:block', '61 characters', 'x'.repeat(61), []],
    ])('%s refuses a name with %s, in a message that does not repeat it', async (command, _case, name, rest) => {
      await expect(runCommand([command, '--username', name, ...rest], services())).rejects.toThrow(new Error(INVALID_NAME));
    });
  });
});
