import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { ClientsService } from '../src/auth/clients/clients.service.js';
import { OAuthClientEntity } from '../src/auth/clients/oauth-client.entity.js';
import { UserEntity } from '../src/auth/users/user.entity.js';
import { UsersService } from '../src/auth/users/users.service.js';
import { runAdminCli } from '../src/cli/admin-cli.js';
import { CliError } from '../src/common/cli/cli-error.js';
import { runCommand, type CliServices } from '../src/cli/commands.js';
import { oauthErrorStub } from './fixtures/oauth-errors.stub.js';
import { TOKEN_PATH } from './utils/auth-fixtures.js';
import { createTestApp, TestApp } from './utils/test-app.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('Administration commands', () => {
  let testApp: TestApp;
  let services: CliServices;

  const passwordGrant = (client: { client_id: string; client_secret: string }, username: string, password: string) =>
    request(testApp.app.getHttpServer())
      .post(TOKEN_PATH)
      .type('form')
      .send({ grant_type: 'password', ...client, username, password });

  beforeAll(async () => {
    testApp = await createTestApp();
    services = { users: testApp.app.get(UsersService), clients: testApp.app.get(ClientsService) };
  });

  beforeEach(async () => {
    await testApp.reset();
  });

  afterAll(async () => {
    await testApp.close();
  });

  describe('client:create', () => {
    it('generates a 32-byte secret and stores only its digest', async () => {
      const printed = await runCommand(['client:create', '--label', 'Fleet gateway'], services);

      expect(Object.keys(printed)).toEqual(['client_id', 'client_secret']);
      expect(printed.client_id).toMatch(UUID);
      expect(Buffer.from(printed.client_secret as string, 'base64url')).toHaveLength(32);
      const row = await testApp.dataSource
        .getRepository(OAuthClientEntity)
        .createQueryBuilder('client')
        .addSelect('client.secretHash')
        .getOneOrFail();
      expect(row).toMatchObject({ clientId: printed.client_id, label: 'Fleet gateway' });
      expect(row.secretHash).toMatch(/^[0-9a-f]{64}$/);
      expect(row.secretHash).not.toContain(printed.client_secret);
    });

    it('keeps a given secret', async () => {
      const printed = await runCommand(['client:create', '--label', 'L', '--secret', 's3cret'], services);

      expect(printed.client_secret).toBe('s3cret');
    });

    it('makes a public client, without a secret, with --public', async () => {
      const printed = await runCommand(['client:create', '--label', 'Field tablet', '--public'], services);

      expect(printed).toEqual({ client_id: expect.stringMatching(UUID), public: true });
      const row = await testApp.dataSource
        .getRepository(OAuthClientEntity)
        .createQueryBuilder('client')
        .addSelect('client.secretHash')
        .getOneOrFail();
      expect(row).toMatchObject({ clientId: printed.client_id, label: 'Field tablet', secretHash: null });
    });

    it('refuses --public with --secret', async () => {
      await expect(runCommand(['client:create', '--label', 'L', '--public', '--secret', 's3cret'], services)).rejects.toThrow(
        'A public client has no secret: give --public or --secret, not both.',
      );
    });
  });

  describe('user:create', () => {
    it('creates an active user with the ingest permission whose credentials obtain tokens', async () => {
      const client = (await runCommand(['client:create', '--label', 'L'], services)) as { client_id: string; client_secret: string };

      const printed = await runCommand(['user:create', '--username', 'gateway-1', '--password', 'pass phrase 1'], services);

      expect(printed).toEqual({ uid: expect.any(Number), uuid: expect.stringMatching(UUID) });
      const row = await testApp.dataSource
        .getRepository(UserEntity)
        .createQueryBuilder('user')
        .addSelect('user.pass')
        .where('user.uid = :uid', { uid: printed.uid })
        .getOneOrFail();
      expect(row).toMatchObject({ name: 'gateway-1', uuid: printed.uuid, status: true, mayCreateSensorRecords: true });
      expect(row.pass).toMatch(/^\$argon2id\$/);
      await passwordGrant(client, 'gateway-1', 'pass phrase 1').expect(200);
    });

    it('creates a user without the ingest permission with --no-ingest', async () => {
      const printed = await runCommand(['user:create', '--username', 'reader', '--password', 'pass phrase 1', '--no-ingest'], services);

      const row = await testApp.dataSource.getRepository(UserEntity).findOneByOrFail({ uid: printed.uid as number });
      expect(row.mayCreateSensorRecords).toBe(false);
    });

    it('refuses a trivially weak password, stating the rule, and stores nothing', async () => {
      for (const password of ['short', 'xxxxxxxxxxxxxxxx', 'Gateway-Unit-7']) {
        await expect(runCommand(['user:create', '--username', 'gateway-unit-7', '--password', password], services)).rejects.toThrow(
          new CliError('The password must be at least 10 characters long, not one character repeated, and not the user name.'),
        );
      }
      expect(await testApp.dataSource.getRepository(UserEntity).count()).toBe(0);
    });

    it('refuses a name that is taken, in any letter case', async () => {
      await runCommand(['user:create', '--username', 'gateway', '--password', 'pass phrase 1'], services);

      await expect(runCommand(['user:create', '--username', 'GATEWAY', '--password', 'pass phrase 1'], services)).rejects.toThrow(
        new CliError('The user name "GATEWAY" is already taken.'),
      );
      expect(await testApp.dataSource.getRepository(UserEntity).count()).toBe(1);
    });
  });

  describe('user:block', () => {
    it('blocks the user, who can then no longer obtain tokens', async () => {
      const client = (await runCommand(['client:create', '--label', 'L'], services)) as { client_id: string; client_secret: string };
      const created = await runCommand(['user:create', '--username', 'lost-device', '--password', 'pass phrase 1'], services);

      const printed = await runCommand(['user:block', '--username', 'lost-device'], services);

      expect(printed).toEqual({ uid: created.uid, status: 'blocked' });
      expect((await testApp.dataSource.getRepository(UserEntity).findOneByOrFail({ uid: created.uid as number })).status).toBe(false);
      expect((await passwordGrant(client, 'lost-device', 'pass phrase 1').expect(400)).body).toEqual(oauthErrorStub.invalidCredentials);
    });

    it('refuses an unknown user', async () => {
      await expect(runCommand(['user:block', '--username', 'ghost'], services)).rejects.toThrow(
        new CliError('There is no user named "ghost".'),
      );
    });
  });

  it.each([
    [[], /^Usage: cli <command> \[options\]; `cli --help` lists the commands and their options\.$/],
    [['user:rename'], /^Unknown command "user:rename"\. Usage: cli <command> \[options\]; `cli --help` lists/],
    [['client:create'], /^Missing required option --label\.$/],
    [['user:create', '--username', 'u'], /^Missing required option --password\.$/],
    [['user:create', '--password', 'p'], /^Missing required option --username\.$/],
    [['user:block', '--username', 'u', '--force'], /^Unknown option '--force'/],
    [['user:block', '--username'], /--username/],
    [['user:unblock'], /^Missing required option --username\.$/],
    [['user:password', '--username', 'u'], /^Missing required option --password\.$/],
    [['user:list', '--all'], /^Unknown option '--all'/],
    [['client:delete'], /^Missing required option --client-id\.$/],
    [['client:list', 'extra'], /extra/],
  ])('refuses %j with a one-line message', async (argv, message) => {
    await expect(runCommand(argv, services)).rejects.toBeInstanceOf(CliError);
    await expect(runCommand(argv, services)).rejects.toThrow(message);
  });
});

describe('Administration command line process', () => {
  const directories: string[] = [];
  const databaseUrl = () => {
    directories.push(mkdtempSync(join(tmpdir(), 'sensor-records-cli-')));
    return `sqlite:${join(directories.at(-1)!, 'cli.sqlite')}`;
  };

  afterEach(() => {
    for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
  });

  it('runs in-process: migrates a new database and prints one JSON line', async () => {
    const stdout: string[] = [];
    const stderr: string[] = [];

    const code = await runAdminCli(
      ['client:create', '--label', 'L'],
      { DATABASE_URL: databaseUrl() },
      {
        stdout: (line) => stdout.push(line),
        stderr: (line) => stderr.push(line),
      },
    );

    expect(code).toBe(0);
    expect(stderr).toEqual([]);
    expect(stdout).toHaveLength(1);
    expect(JSON.parse(stdout[0]!)).toEqual({ client_id: expect.stringMatching(UUID), client_secret: expect.any(String) });
  });

  /** What `argv` prints and its exit code, with a configuration the commands would refuse: help needs none. */
  const printed = async (argv: string[]) => {
    const [stdout, stderr]: [string[], string[]] = [[], []];
    const code = await runAdminCli(
      argv,
      { DATABASE_URL: 'postgres://x' },
      { stdout: (line) => stdout.push(line), stderr: (line) => stderr.push(line) },
    );
    return { code, stdout: stdout.join('\n').split('\n'), stderr };
  };

  it.each([['--help'], ['-h'], ['help']])('answers %s with every command on a line of its own, exit code 0', async (flag) => {
    const { code, stdout, stderr } = await printed([flag]);

    expect([code, stderr]).toEqual([0, []]);
    expect(stdout.slice(0, 4)).toEqual([
      'Usage: cli <command> [options]',
      'Each command prints one line of JSON; `cli <command> --help` shows one command.',
      '',
      'Commands:',
    ]);
    expect(stdout).toContain('  client:create --label L [--secret S | --public]');
    expect(stdout).toContain('  alert:list');
    expect(stdout.slice(4).every((line) => /^ {2}[a-z]+(:[a-z]+)?( |$)/.test(line))).toBe(true);
    expect(stdout.length).toBeGreaterThan(20);
  });

  it.each([[['alert:create', '--help']], [['alert:create', '--user', 'u', '-h']], [['help', 'alert:create']]])(
    'answers %j with that command and its options, exit code 0',
    async (argv) => {
      const { code, stdout, stderr } = await printed(argv);

      expect([code, stderr]).toEqual([0, []]);
      expect(stdout).toEqual([expect.stringMatching(/^Usage: cli alert:create --user U --on EVENTS .*--escalate-email ADDRESS\)\]$/)]);
    },
  );

  it('answers a bad configuration with exit code 1 and one stderr line', async () => {
    const stderr: string[] = [];

    const code = await runAdminCli(
      ['client:create', '--label', 'L'],
      { DATABASE_URL: 'postgres://x' },
      {
        stdout: () => undefined,
        stderr: (line) => stderr.push(line),
      },
    );

    expect(code).toBe(1);
    expect(stderr).toEqual([expect.stringMatching(/DATABASE_URL/)]);
  });

  it('writes the control characters of a value its one stderr line quotes escaped, the line whole', async () => {
    const stderr: string[] = [];

    const code = await runAdminCli(
      ['alert:create', '--user', 'fleet-nz', '--on', 'sprung', '--email', 'a@x.org\r\nBcc: boss@x.org'],
      { DATABASE_URL: databaseUrl() },
      { stdout: () => undefined, stderr: (line) => stderr.push(line) },
    );

    expect(code).toBe(1);
    expect(stderr).toEqual(['--email must be one email address such as trapper@example.org (got "a@x.org\\u000d\\u000aBcc: boss@x.org").']);
  });
});
