import { createHash } from 'node:crypto';
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ClientsService } from '../src/auth/clients/clients.service.js';
import { OAuthClientEntity } from '../src/auth/clients/oauth-client.entity.js';
import { PasswordHasher } from '../src/auth/users/password-hasher.js';
import { UserEntity } from '../src/auth/users/user.entity.js';
import { UsersService } from '../src/auth/users/users.service.js';
import { runCommand, type CliServices } from '../src/cli/commands.js';
import { IntegrationsService } from '../src/integrations/admin/integrations.service.js';
import { IntegrationEntity } from '../src/integrations/integration.entity.js';
import { ttsUplinkStub } from './fixtures/tts-uplink.stub.js';
import { createUser } from './utils/auth-fixtures.js';
import { assertBuilt, BUILT_CLI, childEnvironment, run, scratchDirectory } from './utils/built-process.js';
import { FakeClock } from './utils/fake-clock.js';
import { postTtsUplink } from './utils/integration-api.js';
import { createTestApp, type TestApp } from './utils/test-app.js';

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const KEY = /^[A-Za-z0-9_-]{43}$/;

/** integration:create, integration:list and integration:revoke, with services of their own on the application's database. */
describe('Administration commands for integrations', () => {
  const clock = new FakeClock();
  let testApp: TestApp;
  let cli: CliServices;

  beforeAll(async () => {
    testApp = await createTestApp({ override: clock.install });
    const users = new UsersService(testApp.dataSource.getRepository(UserEntity), new PasswordHasher());
    cli = {
      users,
      clients: new ClientsService(testApp.dataSource.getRepository(OAuthClientEntity)),
      integrations: new IntegrationsService(testApp.dataSource.getRepository(IntegrationEntity), users, {
        baseUrl: 'https://sensors.example.org',
      }),
    };
  });

  beforeEach(async () => {
    await testApp.reset();
  });

  afterAll(async () => {
    await testApp.close();
  });

  describe('integration:create', () => {
    it('prints the id, the key (shown once) and the address to configure; only a digest of the key is stored', async () => {
      const user = await createUser(testApp.app, { username: 'fleet-nz' });

      const printed = await runCommand(['integration:create', '--user', 'FLEET-NZ', '--network', 'tts'], cli);

      expect(printed).toEqual({
        integration_id: expect.any(Number),
        api_key: expect.stringMatching(KEY),
        webhook_url: 'https://sensors.example.org/api-sensor/integrations/tts/uplink',
      });
      const rows: Array<Record<string, unknown>> = await testApp.dataSource.query('SELECT * FROM integrations');
      expect(rows).toEqual([
        expect.objectContaining({
          id: printed.integration_id,
          uid: user.uid,
          network: 'tts',
          label: null,
          dev_id_source: 'eui',
          key_hash: createHash('sha256')
            .update(printed.api_key as string)
            .digest('hex'),
          last_used_at: null,
          revoked_at: null,
        }),
      ]);
      expect(JSON.stringify(rows)).not.toContain(printed.api_key);
    });

    it('takes a label and where dev_id comes from; ChirpStack gets its own address', async () => {
      await createUser(testApp.app, { username: 'fleet-nz' });

      const printed = await runCommand(
        ['integration:create', '--user', 'fleet-nz', '--network', 'chirpstack', '--label', 'Ridge line', '--dev-id', 'name'],
        cli,
      );

      expect(printed.webhook_url).toBe('https://sensors.example.org/api-sensor/integrations/chirpstack');
      expect(await testApp.dataSource.query('SELECT label, dev_id_source FROM integrations')).toEqual([
        { label: 'Ridge line', dev_id_source: 'name' },
      ]);
    });

    it.each([
      [['--network', 'tts'], 'Missing required option --user.'],
      [['--user', 'ghost', '--network', 'tts'], 'There is no user named "ghost".'],
      [['--user', 'fleet-nz', '--network', 'helium'], '--network must be tts or chirpstack.'],
      [['--user', 'fleet-nz', '--network', 'tts', '--dev-id', 'serial'], '--dev-id must be eui or name.'],
      [
        ['--user', 'fleet-nz', '--network', 'tts', '--label', 'a\u0007b'],
        'The label must be 1 to 255 characters without control characters.',
      ],
      [['--user', 'reader', '--network', 'tts'], 'The user "reader" may not create sensor records (it was created with --no-ingest).'],
    ])('refuses %j: %s', async (options, message) => {
      await createUser(testApp.app, { username: 'fleet-nz' });
      await createUser(testApp.app, { username: 'reader', ingest: false });

      await expect(runCommand(['integration:create', ...options], cli)).rejects.toThrow(new Error(message));
      expect(await testApp.dataSource.query('SELECT id FROM integrations')).toEqual([]);
    });
  });

  describe('integration:list and integration:revoke', () => {
    it('lists every integration with its user, when it was last used and whether it is revoked', async () => {
      const user = await createUser(testApp.app, { username: 'fleet-nz' });
      const used = await runCommand(['integration:create', '--user', 'fleet-nz', '--network', 'tts', '--label', 'TTN AU1'], cli);
      const revoked = await runCommand(['integration:create', '--user', 'fleet-nz', '--network', 'chirpstack'], cli);
      await postTtsUplink(testApp.app, ttsUplinkStub.threeGateways, used.api_key as string).expect(201);
      const revocation = await runCommand(['integration:revoke', '--id', String(revoked.integration_id)], cli);

      const printed = await runCommand(['integration:list'], cli);

      expect(revocation).toEqual({ integration_id: revoked.integration_id, status: 'revoked', revoked_at: expect.stringMatching(INSTANT) });
      expect(printed).toEqual({
        integrations: [
          {
            integration_id: used.integration_id,
            label: 'TTN AU1',
            user: 'fleet-nz',
            uid: user.uid,
            network: 'tts',
            dev_id: 'eui',
            created: expect.stringMatching(INSTANT),
            last_used: expect.stringMatching(INSTANT),
            revoked: false,
            revoked_at: null,
          },
          {
            integration_id: revoked.integration_id,
            label: null,
            user: 'fleet-nz',
            uid: user.uid,
            network: 'chirpstack',
            dev_id: 'eui',
            created: expect.stringMatching(INSTANT),
            last_used: null,
            revoked: true,
            revoked_at: revocation.revoked_at,
          },
        ],
      });
    });

    it('revokes once: a second revoke answers as the first', async () => {
      await createUser(testApp.app, { username: 'fleet-nz' });
      const created = await runCommand(['integration:create', '--user', 'fleet-nz', '--network', 'tts'], cli);
      const first = await runCommand(['integration:revoke', '--id', String(created.integration_id)], cli);

      await expect(runCommand(['integration:revoke', '--id', String(created.integration_id)], cli)).resolves.toEqual(first);
    });

    it.each([
      [['--id', '999999'], 'There is no integration with the id 999999.'],
      [['--id', 'first'], '--id must be an integration id (a whole number).'],
      [[], 'Missing required option --id.'],
    ])('refuses integration:revoke %j: %s', async (options, message) => {
      await expect(runCommand(['integration:revoke', ...options], cli)).rejects.toThrow(new Error(message));
    });
  });

  describe('as a process', () => {
    let workdir: ReturnType<typeof scratchDirectory>;

    beforeAll(() => assertBuilt());

    beforeEach(() => {
      workdir = scratchDirectory('sensor-records-integration-cli-');
    });

    afterEach(() => workdir.remove());

    it('prints one JSON line per command: create, list, revoke', async () => {
      const env = childEnvironment({ DATABASE_URL: `sqlite:${join(workdir.path, 'cli.sqlite')}`, BASE_URL: 'https://sensors.example.org' });
      const cliProcess = (...args: string[]) => run(process.execPath, [BUILT_CLI, ...args], { cwd: workdir.path, env });
      await cliProcess('user:create', '--username', 'fleet-nz', '--password', 'a long passphrase');

      const created = await cliProcess('integration:create', '--user', 'fleet-nz', '--network', 'tts');
      const listed = await cliProcess('integration:list');
      const revoked = await cliProcess('integration:revoke', '--id', '1');

      expect(created).toMatchObject({ code: 0, stderr: '' });
      expect(created.stdout).toMatch(
        /^\{"integration_id":1,"api_key":"[A-Za-z0-9_-]{43}","webhook_url":"https:\/\/sensors\.example\.org\/api-sensor\/integrations\/tts\/uplink"\}\n$/,
      );
      expect(listed).toMatchObject({ code: 0, stderr: '' });
      expect(JSON.parse(listed.stdout)).toMatchObject({
        integrations: [{ integration_id: 1, user: 'fleet-nz', network: 'tts', revoked: false }],
      });
      expect(revoked).toMatchObject({ code: 0, stderr: '' });
      expect(JSON.parse(revoked.stdout)).toMatchObject({ integration_id: 1, status: 'revoked' });
    }, 120_000);

    it("prints the webhook address the service has, from the PORT or BASE_URL of the service's .env", async () => {
      const cliProcess = (env: NodeJS.ProcessEnv, ...args: string[]) =>
        run(process.execPath, [BUILT_CLI, ...args], { cwd: workdir.path, env: childEnvironment(env) });
      writeFileSync(join(workdir.path, '.env'), 'PORT=4211\nDATABASE_URL=sqlite:./records.sqlite\n');
      await cliProcess({}, 'user:create', '--username', 'fleet-nz', '--password', 'a long passphrase');

      const fromPort = JSON.parse((await cliProcess({}, 'integration:create', '--user', 'fleet-nz', '--network', 'tts')).stdout);
      appendFileSync(join(workdir.path, '.env'), 'BASE_URL=https://traps.example.org\n');
      const fromBase = JSON.parse((await cliProcess({}, 'integration:create', '--user', 'fleet-nz', '--network', 'chirpstack')).stdout);

      expect(fromPort.webhook_url).toBe('http://localhost:4211/api-sensor/integrations/tts/uplink');
      expect(fromBase.webhook_url).toBe('https://traps.example.org/api-sensor/integrations/chirpstack');
    }, 120_000);
  });
});
