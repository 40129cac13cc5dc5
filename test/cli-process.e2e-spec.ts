import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildDataSourceOptions } from '../src/database/data-source-options.js';
import { quietDatabaseLogger } from '../src/database/database-logger.js';
import { initializeDataSource } from '../src/database/initialize-data-source.js';
import { migrations } from '../src/database/migrations/index.js';
import { assertBuilt, BUILT_CLI, childEnvironment, PROJECT_ROOT, run, scratchDirectory } from './utils/built-process.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const TIMEOUT_MS = 120_000;

/** npm's own notices about the machine's npm configuration are not the command's output. */
const withoutNpmNotices = (stderr: string) => stderr.split('\n').filter((line) => line !== '' && !/^npm (warn|notice)/.test(line));

/** The built administration command line, run as an operator runs it. */
describe('Administration command line as a process', () => {
  let workdir: ReturnType<typeof scratchDirectory>;

  beforeAll(() => assertBuilt());

  beforeEach(() => {
    workdir = scratchDirectory('sensor-records-cli-');
  });

  afterEach(() => {
    workdir.remove();
  });

  // npm runs scripts in the project root, where a developer's own .env may lie: point ENV_FILE at an empty one.
  const environment = () => {
    const settings = join(workdir.path, 'empty.env');
    writeFileSync(settings, '');
    return childEnvironment({ DATABASE_URL: `sqlite:${join(workdir.path, 'cli.sqlite')}`, ENV_FILE: settings });
  };

  describe.each([
    ['node dist/cli.js', process.execPath, [BUILT_CLI]],
    ['npm run --silent cli --', 'npm', ['run', '--silent', 'cli', '--']],
    ['npx sensor-records', 'npx', ['sensor-records']],
  ])('%s', (_form, command, prefix) => {
    const cli = (...args: string[]) => run(command, [...prefix, ...args], { cwd: PROJECT_ROOT, env: environment() });

    it(
      'prints exactly one JSON line on stdout, and on failure one line on stderr and exit code 1',
      async () => {
        const created = await cli('user:create', '--username', 'field-unit', '--password', 'a long passphrase');

        expect(created.code).toBe(0);
        expect(created.stdout).toMatch(/^\{[^\n]*\}\n$/);
        expect(JSON.parse(created.stdout)).toEqual({ uid: 1, uuid: expect.stringMatching(UUID) });
        expect(withoutNpmNotices(created.stderr)).toEqual([]);

        const refused = await cli('user:create', '--username', 'field-unit', '--password', 'a long passphrase');

        expect(refused.code).toBe(1);
        expect(refused.stdout).toBe('');
        expect(withoutNpmNotices(refused.stderr)).toEqual(['The user name "field-unit" is already taken.']);
      },
      TIMEOUT_MS,
    );
  });

  it(
    'reads .env in its working directory, the environment winning over the file, and prints nothing about it',
    async () => {
      writeFileSync(join(workdir.path, '.env'), 'DATABASE_URL=sqlite:./from-env-file.sqlite\nACCESS_TOKEN_TTL=600\n');

      const fromFile = await run(process.execPath, [BUILT_CLI, 'client:create', '--label', 'L'], {
        cwd: workdir.path,
        env: childEnvironment(),
      });

      expect(fromFile).toMatchObject({ code: 0, stderr: '' });
      expect(fromFile.stdout).toMatch(/^\{"client_id":"[^"]+","client_secret":"[^"]+"\}\n$/);
      expect(existsSync(join(workdir.path, 'from-env-file.sqlite'))).toBe(true);

      const overridden = await run(process.execPath, [BUILT_CLI, 'client:create', '--label', 'L'], {
        cwd: workdir.path,
        env: childEnvironment({ DATABASE_URL: 'sqlite:./from-environment.sqlite' }),
      });

      expect(overridden).toMatchObject({ code: 0, stderr: '' });
      expect(existsSync(join(workdir.path, 'from-environment.sqlite'))).toBe(true);
    },
    TIMEOUT_MS,
  );

  it(
    'refuses an ENV_FILE that cannot be read, in one stderr line',
    async () => {
      const missing = join(workdir.path, 'missing.env');

      const result = await run(process.execPath, [BUILT_CLI, 'client:create', '--label', 'L'], {
        cwd: workdir.path,
        env: childEnvironment({ ENV_FILE: missing }),
      });

      expect(result).toMatchObject({
        code: 1,
        stdout: '',
        stderr: `Invalid configuration: cannot read the settings file ${missing} (ENOENT)\n`,
      });
    },
    TIMEOUT_MS,
  );

  it(
    "reports a migration that cannot be applied in one stderr line, with nothing of TypeORM's on stdout",
    async () => {
      const path = join(workdir.path, 'orphan.sqlite');
      // A database the first two migrations built, holding a record whose user is gone.
      const older = await initializeDataSource({
        ...buildDataSourceOptions({ type: 'sqlite', path, migrationsRun: true, requestTimeoutMs: 3000 }),
        migrations: migrations.slice(0, 2),
        logger: quietDatabaseLogger,
      });
      await older.query('PRAGMA foreign_keys = OFF');
      await older.query(
        'INSERT INTO sensor_report (uuid, type, langcode, status, promote, sticky, default_langcode, revision_translation_affected, uid, revision_uid, title, created, changed, revision_timestamp, field_date, field_event, field_sensor_id, field_timeout, request_body) ' +
          "VALUES ('0b1c2d3e-4f50-4617-a8b9-cadbecfd0e1f', 'sensor_report', 'en', 1, 0, 0, 1, 1, 42, 42, 't', '2021-01-14', '2021-01-14', '2021-01-14', '2021-01-14', 'Heartbeat', 'trap-17', 86400, '{}')",
      );
      await older.destroy();

      const result = await run(process.execPath, [BUILT_CLI, 'user:list'], {
        cwd: workdir.path,
        env: childEnvironment({ DATABASE_URL: `sqlite:${path}` }),
      });

      expect(result).toMatchObject({
        code: 1,
        stdout: '',
        stderr:
          'Failed: Cannot add the foreign key sensor_report.uid -> users.uid: 1 sensor_report rows refer to a users row that does not exist; restore those rows, then start again.\n',
      });
    },
    TIMEOUT_MS,
  );

  it(
    'gives the TypeORM CLI the same settings file, named on stderr',
    async () => {
      const settings = join(workdir.path, 'orm.env');
      writeFileSync(settings, `DATABASE_URL=sqlite:${join(workdir.path, 'orm.sqlite')}\n`);

      const result = await run('npm', ['run', '--silent', 'migration:show'], {
        cwd: PROJECT_ROOT,
        env: childEnvironment({ ENV_FILE: settings }),
      });

      expect(result.code).toBe(0);
      expect(result.stdout).toContain('[ ] CreateAuthTables1763700000000');
      expect(withoutNpmNotices(result.stderr)).toEqual([`Settings read from ${settings}`]);
      expect(existsSync(join(workdir.path, 'orm.sqlite'))).toBe(true);
    },
    TIMEOUT_MS,
  );

  it(
    'leaves npm its own messages: an unknown script is named',
    async () => {
      const result = await run('npm', ['run', 'no-such-script'], { cwd: PROJECT_ROOT, env: childEnvironment() });

      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain('Missing script: "no-such-script"');
    },
    TIMEOUT_MS,
  );
});
