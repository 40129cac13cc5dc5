import { join } from 'node:path';
import { AlertsAdmin } from '../src/alerts/admin/alerts-admin.service.js';
import { PasswordHasher } from '../src/auth/users/password-hasher.js';
import { UserEntity } from '../src/auth/users/user.entity.js';
import { UsersService } from '../src/auth/users/users.service.js';
import { runAdminCli } from '../src/cli/admin-cli.js';
import { runCommand } from '../src/cli/commands.js';
import { CliError } from '../src/common/cli/cli-error.js';
import { systemClock } from '../src/common/time/clock.js';
import { APP_CONFIG, type AppConfig } from '../src/config/app-config.js';
import { ingestCaller } from './utils/auth-fixtures.js';
import { scratchDirectory } from './utils/built-process.js';
import { reportBody } from './utils/read-side.js';
import { submit } from './utils/sensor-record-api.js';
import { createTestApp, type TestApp } from './utils/test-app.js';
import { WebhookReceiver } from './utils/webhook-receiver.js';

// Email alerts are accepted only where SMTP is configured; nothing is sent to this address in these tests.
process.env.SMTP_URL = 'smtp://alerts:smtp-secret-pw@127.0.0.1:2525';
process.env.ALERT_EMAIL_FROM = 'alerts@traps.example.org';

/** alert:create, alert:list, alert:delete and alert:test (docs/alerts.md#setting-up), on the application's database. */
describe('Alert commands', () => {
  const receiver = new WebhookReceiver();
  let testApp: TestApp;
  let cli: (...argv: string[]) => Promise<Record<string, unknown>>;

  beforeAll(async () => {
    await receiver.start();
    testApp = await createTestApp();
    const users = new UsersService(testApp.dataSource.getRepository(UserEntity), new PasswordHasher());
    const alerts = new AlertsAdmin(testApp.dataSource, users, systemClock, testApp.app.get<AppConfig>(APP_CONFIG));
    cli = (...argv) => runCommand(argv, { users, clients: undefined as never, alerts });
  });

  afterAll(async () => {
    await testApp.close();
    await receiver.stop();
  });

  beforeEach(async () => {
    await testApp.reset();
    await cli('user:create', '--username', 'fleet-nz', '--password', 'correct horse battery staple');
  });

  it('creates a webhook alert with a generated secret shown once, lists it without secret, path or query string, and deletes it', async () => {
    const created = await cli(
      'alert:create',
      '--user',
      'fleet-nz',
      '--on',
      'sprung,silent',
      '--webhook',
      'https://ntfy.sh/traps?auth=abc',
      '--format',
      'text',
    );

    expect(created).toEqual({ alert_id: expect.any(Number), secret: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const listed = await cli('alert:list');
    expect(listed).toEqual({
      alerts: [
        expect.objectContaining({
          alert_id: created.alert_id,
          user: 'fleet-nz',
          events: ['sprung', 'silent'],
          sensor: null,
          channel: 'webhook',
          target: 'https://ntfy.sh/…',
          format: 'text',
          remind_after: 43200,
          escalate_after: null,
        }),
      ],
    });
    expect(JSON.stringify(listed)).not.toContain(String(created.secret));
    expect(await cli('alert:delete', '--id', String(created.alert_id))).toEqual({ alert_id: created.alert_id, status: 'deleted' });
    expect(await cli('alert:list')).toEqual({ alerts: [] });
  });

  it('lists a Slack-style webhook and an escalation webhook by their origin and first path segment, the secret part masked', async () => {
    await cli(
      'alert:create',
      '--user',
      'fleet-nz',
      '--on',
      'sprung',
      '--format',
      'slack',
      '--webhook',
      'https://hooks.slack.com/services/T0SECRET/B0SECRET/XXXXSECRET',
      '--escalate-webhook',
      'https://ntfy.sh/boss-topic-SECRET?auth=SECRET',
    );

    const listed = await cli('alert:list');

    expect(listed.alerts).toEqual([
      expect.objectContaining({ target: 'https://hooks.slack.com/services/…', escalate_target: 'https://ntfy.sh/…' }),
    ]);
    expect(JSON.stringify(listed)).not.toContain('SECRET');
  });

  it('takes all events, a sensor, thresholds, durations and an escalation', async () => {
    const created = await cli(
      'alert:create',
      '--user',
      'fleet-nz',
      '--on',
      'all',
      '--webhook',
      receiver.url(),
      '--secret',
      'a-secret-of-sixteen+',
      '--sensor',
      'trap-1',
      '--battery-below',
      '3.3',
      '--bait-below',
      '20',
      '--remind-after',
      '90m',
      '--escalate-after',
      '20h',
      '--escalate-email',
      'boss@example.org',
    );

    expect(created.secret).toBe('a-secret-of-sixteen+');
    expect((await cli('alert:list')).alerts).toEqual([
      expect.objectContaining({
        events: [
          'sprung',
          'reset',
          'silent',
          'back',
          'battery_low',
          'tilted',
          'bait_low',
          'sprung_reminder',
          'sprung_escalation',
          'sprung_deadline',
        ],
        sensor: 'trap-1',
        battery_below: 3.3,
        bait_below: 20,
        remind_after: 5400,
        escalate_after: 72000,
        escalate_target: 'boss@example.org',
      }),
    ]);
  });

  it('hears battery_low below 3.3 V when no --battery-below is given, and leaves bait_low out of all without --bait-below', async () => {
    await cli('alert:create', '--user', 'fleet-nz', '--on', 'all', '--webhook', 'https://x.example/h');
    await cli('alert:create', '--user', 'fleet-nz', '--on', 'battery_low', '--webhook', 'https://x.example/h', '--battery-below', '3.6');

    const [all, battery] = (await cli('alert:list')).alerts as Array<Record<string, unknown>>;

    expect(all).toMatchObject({ battery_below: 3.3, bait_below: null });
    expect(all!.events).not.toContain('bait_low');
    expect(all!.events).toContain('battery_low');
    expect(battery).toMatchObject({ events: ['battery_low'], battery_below: 3.6 });
  });

  it.each([
    [
      ['--on', 'sprung,eaten', '--webhook', 'https://x.example/h'],
      'Unknown event "eaten" in --on: use all, or a comma list of sprung, reset, silent, back, battery_low, tilted, bait_low, sprung_reminder, sprung_escalation, sprung_deadline.',
    ],
    [
      ['--on', 'sprung,bait_low', '--webhook', 'https://x.example/h'],
      'bait_low needs --bait-below N: the bait level below which a Baitlevel report is low.',
    ],
    [['--on', 'sprung', '--webhook', 'ftp://x.example/h'], '--webhook must be an http:// or https:// URL (got "ftp://x.example/h").'],
    [['--on', 'sprung', '--webhook', 'not-a-url'], '--webhook must be an http:// or https:// URL (got "not-a-url").'],
    [['--on', 'sprung', '--webhook', 'https://x.example/h\r\nX: y'], '--webhook must be a URL without spaces or control characters.'],
    [['--on', 'sprung', '--webhook', 'https://x.example/a b'], '--webhook must be a URL without spaces or control characters.'],
    [['--on', 'sprung', '--email', 'trapper@'], '--email must be one email address such as trapper@example.org (got "trapper@").'],
    [
      ['--on', 'sprung', '--webhook', 'https://x.example/h', '--remind-after', '12 hours'],
      '--remind-after must be a duration such as 90s, 15m or 12h, less than the 24h deadline (got "12 hours").',
    ],
    [
      ['--on', 'sprung', '--webhook', 'https://x.example/h', '--remind-after', '25h'],
      '--remind-after must be a duration such as 90s, 15m or 12h, less than the 24h deadline (got "25h").',
    ],
    [
      ['--on', 'sprung', '--webhook', 'https://x.example/h', '--remind-after', '24h'],
      '--remind-after must be a duration such as 90s, 15m or 12h, less than the 24h deadline (got "24h").',
    ],
    [
      ['--on', 'sprung', '--webhook', 'https://x.example/h', '--escalate-after', '1440m', '--escalate-email', 'boss@example.org'],
      '--escalate-after must be a duration such as 90s, 15m or 12h, less than the 24h deadline (got "1440m").',
    ],
    [
      [
        '--on',
        'sprung',
        '--webhook',
        'https://x.example/h',
        '--remind-after',
        '20h',
        '--escalate-after',
        '12h',
        '--escalate-email',
        'b@x.nz',
      ],
      '--remind-after (20h) must be shorter than --escalate-after (12h): the reminder comes before the escalation.',
    ],
    [
      [
        '--on',
        'sprung',
        '--webhook',
        'https://x.example/h',
        '--remind-after',
        '90m',
        '--escalate-after',
        '5400s',
        '--escalate-email',
        'b@x.nz',
      ],
      '--remind-after (90m) must be shorter than --escalate-after (90m): the reminder comes before the escalation.',
    ],
    [
      ['--on', 'sprung', '--webhook', 'https://x.example/h', '--remind-after', '21h', '--escalate-webhook', 'https://y.example/h'],
      '--remind-after (21h) must be shorter than --escalate-after (20h, the default): the reminder comes before the escalation.',
    ],
    [['--on', 'sprung'], 'Missing required option --webhook URL or --email ADDRESS.'],
    [['--on', 'sprung', '--webhook', 'https://x.example/h', '--email', 'a@b.nz'], 'Give --webhook or --email, not both.'],
    [['--on', 'sprung', '--webhook', 'https://x.example/h', '--format', 'xml'], '--format must be one of json, slack, text (got "xml").'],
    [
      ['--on', 'sprung', '--webhook', 'https://x.example/h', '--battery-below', 'low'],
      '--battery-below must be a voltage above 0, such as 3.3, with at most three decimals (got "low").',
    ],
    [
      ['--on', 'bait_low', '--webhook', 'https://x.example/h', '--bait-below', 'NaN'],
      '--bait-below must be a bait level above 0, such as 20, with at most three decimals (got "NaN").',
    ],
    [
      ['--on', 'sprung', '--webhook', 'https://x.example/h', '--escalate-after', '20h'],
      '--escalate-after needs --escalate-webhook URL or --escalate-email ADDRESS.',
    ],
  ])('refuses alert:create %j with one line', async (options, message) => {
    await expect(cli('alert:create', '--user', 'fleet-nz', ...options)).rejects.toThrow(new Error(message));
    expect((await cli('alert:list')).alerts).toEqual([]);
  });

  it('refuses an email alert, or an email escalation, in one line where SMTP is not configured', async () => {
    const config = testApp.app.get<AppConfig>(APP_CONFIG);
    const users = new UsersService(testApp.dataSource.getRepository(UserEntity), new PasswordHasher());
    const withoutSmtp = new AlertsAdmin(testApp.dataSource, users, systemClock, {
      ...config,
      alerts: { ...config.alerts, email: { groupSeconds: 60 } },
    });
    const run = (...argv: string[]) => runCommand(argv, { users, clients: undefined as never, alerts: withoutSmtp });
    const refusal = new Error('Email alerts need SMTP_URL and ALERT_EMAIL_FROM in the configuration (docs/alerts.md#email).');

    await expect(run('alert:create', '--user', 'fleet-nz', '--on', 'sprung', '--email', 'trapper@example.org')).rejects.toThrow(refusal);
    await expect(
      run(
        'alert:create',
        '--user',
        'fleet-nz',
        '--on',
        'sprung',
        '--webhook',
        'https://x.example/h',
        '--escalate-email',
        'boss@example.org',
      ),
    ).rejects.toThrow(refusal);
    expect((await cli('alert:list')).alerts).toEqual([]);
    expect(await run('alert:create', '--user', 'fleet-nz', '--on', 'sprung', '--webhook', 'https://x.example/h')).toEqual({
      alert_id: expect.any(Number),
      secret: expect.any(String),
    });
  });

  describe('--sensor', () => {
    const report = async (caller: { accessToken: string }, devId: string) =>
      submit(testApp.app, reportBody({ dev_id: devId, time: '2026-11-26T01:00:00Z' }), {
        token: caller.accessToken,
        format: 'json',
      }).expect(201);
    /** alert:create of an alert to a webhook (or `--email`), hearing only `devId`. */
    const createFor = (username: string, devId: string, target = ['--webhook', 'https://x.example/h']) =>
      cli('alert:create', '--user', username, '--on', 'sprung', ...target, '--sensor', devId);

    it("refuses another user's sensor with one line that does not name that user", async () => {
      const [owner, other] = [await ingestCaller(testApp.app), await ingestCaller(testApp.app)];
      await report(other, 'trap-theirs');

      const refused = createFor(owner.username, 'trap-theirs');

      await expect(refused).rejects.toThrow(
        new Error(
          `--sensor "trap-theirs" is another user's sensor, not one of ${owner.username}'s: an alert hears only its own user's sensors.`,
        ),
      );
      await expect(refused).rejects.not.toThrow(other.username);
      expect((await cli('alert:list')).alerts).toEqual([]);
    });

    it('refuses a dev_id no submission can carry, which the alert could never hear of', async () => {
      const owner = await ingestCaller(testApp.app);

      await expect(createFor(owner.username, 'a\nb')).rejects.toThrow(
        new Error(
          '--sensor "a\\u000ab" can never be a dev_id, so the alert could never fire: This value should not contain control characters.',
        ),
      );
      expect((await cli('alert:list')).alerts).toEqual([]);
    });

    it("takes the user's own sensor without a warning, though another user has one of that dev_id too", async () => {
      const [owner, other] = [await ingestCaller(testApp.app), await ingestCaller(testApp.app)];
      await report(other, 'trap-shared');
      await report(owner, 'trap-shared');

      const created = await createFor(owner.username, 'trap-shared');

      expect(created).toEqual({ alert_id: expect.any(Number), secret: expect.any(String) });
      expect((await cli('alert:list')).alerts).toEqual([expect.objectContaining({ user: owner.username, sensor: 'trap-shared' })]);
    });

    it('takes a dev_id not reported yet, saying so in a warning that names the spellings differing only in letter case', async () => {
      const owner = await ingestCaller(testApp.app);
      await report(owner, '0004A30B001C1234');
      const create = (devId: string) => createFor(owner.username, devId, ['--email', 'trapper@example.org']);

      expect(await create('trap-new')).toEqual({
        alert_id: expect.any(Number),
        warning: `${owner.username} has no sensor "trap-new" yet: the alert hears of it from its first record.`,
      });
      expect(await create('0004a30b001c1234')).toEqual({
        alert_id: expect.any(Number),
        warning: `${owner.username} has no sensor "0004a30b001c1234" yet: the alert hears of it from its first record. Device ids are compared exactly, letter case included; ${owner.username}'s that differ only in case: "0004A30B001C1234".`,
      });
      expect((await cli('alert:list')).alerts).toHaveLength(2);
    });
  });

  it('refuses an unknown user and an unknown alert id', async () => {
    await expect(cli('alert:create', '--user', 'nobody', '--on', 'all', '--webhook', 'https://x.example/h')).rejects.toThrow(/nobody/);
    await expect(cli('alert:delete', '--id', '999')).rejects.toThrow(new Error('There is no alert with the id 999.'));
    await expect(cli('alert:test', '--id', 'x')).rejects.toThrow(new Error('--id must be an alert id (a whole number).'));
  });

  it("alert:test sends a signed test notification now and prints the receiver's answer", async () => {
    const created = await cli('alert:create', '--user', 'fleet-nz', '--on', 'sprung', '--webhook', receiver.url('/hook?token=t'));
    receiver.secret = String(created.secret);
    receiver.answer = { status: 200, body: 'thanks' };

    const tested = await cli('alert:test', '--id', String(created.alert_id));

    expect(tested).toEqual({
      alert_id: created.alert_id,
      notification_id: expect.any(Number),
      receiver: new URL(receiver.url()).origin,
      outcome: 'delivered',
      status: 200,
      answer: 'thanks',
    });
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]).toMatchObject({
      path: '/hook?token=t',
      signed: true,
      json: { event: 'test', record: null, sensor: null },
    });
    const [row] = (await testApp.dataSource.query('SELECT status FROM alert_notifications')) as Array<{ status: string }>;
    expect(row!.status).toBe('delivered');
  });

  it("alert:test prints the receiver's answer and fails with one line when the receiver does not accept the test notification", async () => {
    const created = await cli('alert:create', '--user', 'fleet-nz', '--on', 'sprung', '--webhook', receiver.url());
    receiver.secret = String(created.secret);
    receiver.answer = { status: 503, body: 'down for maintenance' };
    const origin = new URL(receiver.url()).origin;

    const failure = (await cli('alert:test', '--id', String(created.alert_id)).catch((error: unknown) => error)) as CliError;

    expect(failure).toBeInstanceOf(CliError);
    expect(failure.message).toBe(`The test notification was not accepted: ${origin} answered HTTP 503, not 2xx.`);
    expect(failure.output).toEqual({
      alert_id: created.alert_id,
      notification_id: expect.any(Number),
      receiver: origin,
      outcome: 'failed',
      status: 503,
      reason: 'HTTP 503',
      answer: 'down for maintenance',
    });
    const [row] = (await testApp.dataSource.query('SELECT status, last_error FROM alert_notifications')) as Array<Record<string, string>>;
    expect(row).toEqual({ status: 'failed', last_error: 'HTTP 503' });
  });

  it('alert:test says so when the receiver cannot be reached', async () => {
    const down = await new WebhookReceiver().start();
    const url = down.url();
    await down.stop();
    const created = await cli('alert:create', '--user', 'fleet-nz', '--on', 'sprung', '--webhook', url);

    const failure = (await cli('alert:test', '--id', String(created.alert_id)).catch((error: unknown) => error)) as CliError;

    expect(failure.message).toBe(`The test notification was not delivered to ${new URL(url).origin}: ECONNREFUSED.`);
    expect(failure.output).toMatchObject({ outcome: 'failed', status: null, reason: 'ECONNREFUSED', answer: null });
  });
});

describe('alert:test as a process', () => {
  const workdir = scratchDirectory('sensor-records-alert-test-');
  const receiver = new WebhookReceiver();

  beforeAll(() => receiver.start());

  afterAll(async () => {
    await receiver.stop();
    workdir.remove();
  });

  it('exits 1 when the receiver answers other than 2xx: its answer on stdout, one line on stderr', async () => {
    const env = { DATABASE_URL: `sqlite:${join(workdir.path, 'alerts.sqlite')}` };
    const cli = async (...argv: string[]) => {
      const [stdout, stderr]: [string[], string[]] = [[], []];
      const code = await runAdminCli(argv, env, { stdout: (line) => stdout.push(line), stderr: (line) => stderr.push(line) });
      return { code, stdout, stderr };
    };
    await cli('user:create', '--username', 'fleet-nz', '--password', 'correct horse battery staple');
    const created = JSON.parse((await cli('alert:create', '--user', 'fleet-nz', '--on', 'sprung', '--webhook', receiver.url())).stdout[0]!);
    receiver.answer = { status: 404, body: 'no such hook' };

    const tested = await cli('alert:test', '--id', String(created.alert_id));

    expect(tested.code).toBe(1);
    expect(tested.stdout.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({ outcome: 'failed', status: 404, answer: 'no such hook' }),
    ]);
    expect(tested.stderr).toEqual([
      `The test notification was not accepted: ${new URL(receiver.url()).origin} answered HTTP 404, not 2xx.`,
    ]);
    receiver.answer = { status: 204 };
    expect(await cli('alert:test', '--id', String(created.alert_id))).toMatchObject({ code: 0, stderr: [] });
  });
});
