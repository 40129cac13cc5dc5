import request from 'supertest';
import type { AlertsAdmin } from '../src/alerts/admin/alerts-admin.service.js';
import { siteTime as siteWallClock } from '../src/alerts/notification-text.js';
import { CliError } from '../src/common/cli/cli-error.js';
import { APP_CONFIG, type AppConfig } from '../src/config/app-config.js';
import { alertCommands, alertsAdmin } from './utils/alerts.js';
import { ingestCaller } from './utils/auth-fixtures.js';
import { FakeClock } from './utils/fake-clock.js';
import { type Report, reportBody } from './utils/read-side.js';
import { submit, submitBatch } from './utils/sensor-record-api.js';
import { SmtpReceiver } from './utils/smtp-receiver.js';
import { createTestApp, type TestApp, UNHURRIED_DATABASE } from './utils/test-app.js';
import { until } from './utils/until.js';

// The alerts' clock looks every second (the 24-hour clock's escalation); the group window is the default 60 s.
process.env.ALERT_CLOCK_INTERVAL = '1';
process.env.ALERT_EMAIL_FROM = 'Trap alerts <alerts@traps.example.org>';

const WINDOW_MS = 60_000;
const HOUR_MS = 3600_000;

/**
 * Email alerts end to end (docs/alerts.md#email): records submitted over HTTP, their notifications
 * grouped per address and sent through a real SMTP server that requires a password; what arrived is
 * read back with mailparser.
 */
describe('Email alerts', () => {
  const clock = new FakeClock();
  const smtp = new SmtpReceiver();
  let testApp: TestApp;
  let admin: AlertsAdmin;
  let owner: Awaited<ReturnType<typeof ingestCaller>>;
  let other: Awaited<ReturnType<typeof ingestCaller>>;

  const cli = (...argv: string[]) => alertCommands(admin)(...argv);
  const config = () => testApp.app.get<AppConfig>(APP_CONFIG);
  const sprung = (devId: string, minutes: number): Record<string, unknown> =>
    reportBody({ dev_id: devId, time: deviceTime(minutes), event: 'Sprung', status: 'Sprung', timeout: 3600 } satisfies Report);
  const send = async (caller: { accessToken: string }, body: Record<string, unknown>) =>
    submit(testApp.app, body, { token: caller.accessToken, format: 'json' }).expect(201);
  // Device times from two hours before the test began, whatever the clock does meanwhile.
  let began = 0;
  const deviceInstant = (minutes: number) => new Date(Math.floor(began / 60_000) * 60_000 - 2 * HOUR_MS + minutes * 60_000);
  const deviceTime = (minutes: number) => deviceInstant(minutes).toISOString();
  // As the texts say them: written when the record was received, by default as the test began (the site's
  // today, which dates yesterday's times, is the one of that moment).
  const siteTime = (minutes: number, written = began) => siteWallClock(deviceInstant(minutes), config().siteTimezone, written);
  const createEmailAlert = async (user: string, on: string, address: string, ...more: string[]) =>
    Number((await cli('alert:create', '--user', user, '--on', on, '--email', address, ...more)).alert_id);
  const notifications = () =>
    testApp.dataSource.query('SELECT id, event, status, attempts, dev_id, last_error FROM alert_notifications ORDER BY id') as Promise<
      Array<{ id: number; event: string; status: string; attempts: number; dev_id: string; last_error: string | null }>
    >;
  /** The email sends of this application so far with the outcome (the counters run across the file's tests). */
  const sends = async (outcome: 'delivered' | 'retry' | 'failed') => {
    const text = (await request(testApp.app.getHttpServer()).get('/metrics').expect(200)).text;
    return Number(
      new RegExp(`^alert_notification_sends_total\\{channel="email",outcome="${outcome}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0,
    );
  };

  beforeAll(async () => {
    await smtp.start();
    process.env.SMTP_URL = smtp.url();
    // A gateway's backlog of 300 events, each a new sensor, episode and notification, is written in three batches.
    testApp = await createTestApp({ override: clock.install, env: UNHURRIED_DATABASE });
    admin = alertsAdmin(testApp, clock);
  });

  afterAll(async () => {
    await testApp.close();
    await smtp.stop();
  });

  beforeEach(async () => {
    await testApp.reset();
    clock.advance(Math.floor(Date.now() / 1000) * 1000 - clock.now());
    began = clock.now();
    smtp.received.length = 0;
    smtp.attempts = 0;
    smtp.refusal = null;
    [owner, other] = [await ingestCaller(testApp.app), await ingestCaller(testApp.app)];
  });

  it("sends a sprung trap as one email naming the trap and the site's time, from ALERT_EMAIL_FROM, after the group window; never another user's trap", async () => {
    const alertId = await createEmailAlert(owner.username, 'sprung', 'trapper@example.org', '--sensor', '0004A30B001C1234');
    await createEmailAlert(other.username, 'sprung', 'neighbour@example.org');

    await send(owner, sprung('0004A30B001C1234', 1));
    await send(other, sprung('0004A30B001C9999', 1));
    // Half a window on, another address's first notification: due only a window after it was written.
    clock.advance(WINDOW_MS / 2);
    const lateWritten = clock.now();
    await createEmailAlert(owner.username, 'sprung', 'later@example.org', '--sensor', 'trap-late');
    await send(owner, sprung('trap-late', 2));
    clock.advance(WINDOW_MS / 2);
    await until(() => smtp.received.length >= 2);
    await until(async () => (await notifications()).filter((notification) => notification.status === 'delivered').length === 2);

    expect(smtp.received.map((email) => email.rcptTo).sort()).toEqual([['neighbour@example.org'], ['trapper@example.org']]);
    const email = smtp.received.find((received) => received.rcptTo[0] === 'trapper@example.org')!;
    expect(email.mailFrom).toBe('alerts@traps.example.org');
    expect(email.mail.from?.value).toEqual([{ name: 'Trap alerts', address: 'alerts@traps.example.org' }]);
    expect(email.mail.to).toMatchObject({ text: 'trapper@example.org' });
    expect(email.mail.subject).toBe(`Trap 0004A30B001C1234 sprung at ${siteTime(1)}`);
    // The site's wall clock; dated when two hours before the test fell on the site's yesterday, and with
    // the year when that was in the site's last year (notification-text.spec.ts). en-NZ writes Sept.
    expect(siteTime(1)).toMatch(/^\d\d:\d\d( on \d{1,2} [A-Z][a-z]{2,3}( \d{4})?)? \(NZ[DS]T\)$/);
    expect(email.mail.text).toMatch(
      new RegExp(`^Trap 0004A30B001C1234 sprung at ${siteTime(1).replace(/[()]/g, '\\$&')}\\n  http://\\S+/node/\\d+\\n`),
    );
    expect(email.mail.text).toContain(`for alert ${alertId} (notification `);
    expect(email.mail.text).not.toContain('0004A30B001C9999');
    expect(email.mail.messageId).toMatch(/^<alert-notifications\.[0-9a-f]{32}@/);
    // The later address's notification, half a window old, still waits, untried.
    expect(await notifications()).toEqual(
      expect.arrayContaining([expect.objectContaining({ dev_id: 'trap-late', status: 'pending', attempts: 0 })]),
    );
    clock.advance(WINDOW_MS / 2);
    await until(() => smtp.received.length >= 3);
    expect(smtp.received[2]!.mail.subject).toBe(`Trap trap-late sprung at ${siteTime(2, lateWritten)}`);
  });

  it("sends a gateway's backlog of 300 events to one address within the window as one email listing all 300, oldest first", async () => {
    await createEmailAlert(owner.username, 'sprung', 'trapper@example.org');
    const delivered = await sends('delivered');

    for (let part = 0; part < 3; part++) {
      const batch = Array.from({ length: 100 }, (_, index) => sprung(`trap-${String(part * 100 + index).padStart(3, '0')}`, part));
      await submitBatch(testApp.app, batch, { token: owner.accessToken }).expect(201);
      clock.advance(10_000);
    }
    clock.advance(WINDOW_MS);
    await until(() => smtp.received.length >= 1);
    await until(async () => (await notifications()).every((notification) => notification.status === 'delivered'));

    expect(smtp.received).toHaveLength(1);
    const [email] = smtp.received;
    expect(email!.mail.subject).toBe(`Trap trap-000 sprung at ${siteTime(0)} (and 299 more)`);
    const lines = email!.mail.text!.split('\n').filter((line) => line.startsWith('Trap '));
    expect(lines).toHaveLength(300);
    expect(lines[0]).toBe(`Trap trap-000 sprung at ${siteTime(0)}`);
    // The third hundred was received 20 s after the first.
    expect(lines[299]).toBe(`Trap trap-299 sprung at ${siteTime(2, began + 20_000)}`);
    expect(email!.mail.text).toMatch(/^300 notifications, oldest first:\n/);
    expect(await notifications()).toHaveLength(300);
    expect((await notifications()).every((notification) => notification.attempts === 1)).toBe(true);
    expect((await sends('delivered')) - delivered).toBe(300);
  });

  it('keeps retrying while the SMTP server answers 451, adds what comes meanwhile to the same message, and delivers everything once it accepts', async () => {
    await createEmailAlert(owner.username, 'sprung,reset', 'trapper@example.org');
    smtp.refusal = { code: 451, text: 'Mailbox busy, try later' };
    const [delivered, retried] = [await sends('delivered'), await sends('retry')];

    await send(owner, sprung('trap-a', 1));
    await send(owner, sprung('trap-b', 2));
    clock.advance(WINDOW_MS);
    await until(() => smtp.attempts >= 1);
    await until(async () =>
      (await notifications()).every((notification) => notification.attempts === 1 && notification.last_error !== null),
    );
    expect(await notifications()).toEqual([
      expect.objectContaining({ status: 'pending', last_error: 'SMTP 451' }),
      expect.objectContaining({ status: 'pending', last_error: 'SMTP 451' }),
    ]);

    // A reset arrives while the first two wait for their retry; it goes with them, after them.
    const resetWritten = clock.now();
    await send(owner, reportBody({ dev_id: 'trap-a', time: deviceTime(3), event: 'Set', status: 'Set', timeout: 3600 }));
    clock.advance(20 * 60_000);
    await until(() => smtp.attempts >= 2);
    await until(async () => (await notifications()).every((notification) => notification.last_error !== null));
    smtp.refusal = null;
    // Past the longest backoff (15 min): due again.
    clock.advance(20 * 60_000);
    await until(() => smtp.received.length >= 1);
    await until(async () => (await notifications()).every((notification) => notification.status === 'delivered'));

    expect(smtp.received).toHaveLength(1);
    const lines = smtp.received[0]!.mail.text!.split('\n').filter((line) => line.startsWith('Trap '));
    expect(lines).toEqual([
      `Trap trap-a sprung at ${siteTime(1)}`,
      `Trap trap-b sprung at ${siteTime(2)}`,
      `Trap trap-a set again at ${siteTime(3, resetWritten)}, after 2 min sprung`,
    ]);
    // Two notifications retried at the first try, three at the second.
    expect((await sends('retry')) - retried).toBe(5);
    expect((await sends('delivered')) - delivered).toBe(3);
  });

  it('keeps the notifications while the SMTP server cannot be reached, and delivers them once it is back', async () => {
    await createEmailAlert(owner.username, 'sprung', 'trapper@example.org');
    await smtp.stop();
    try {
      await send(owner, sprung('trap-d', 1));
      clock.advance(WINDOW_MS);
      await until(async () => (await notifications())[0]?.last_error != null);
      expect(await notifications()).toEqual([expect.objectContaining({ status: 'pending', attempts: 1, last_error: 'ECONNREFUSED' })]);
    } finally {
      await smtp.start();
    }
    clock.advance(20 * 60_000);
    await until(async () => (await notifications())[0]?.status === 'delivered');

    expect(smtp.received.map((email) => email.mail.subject)).toEqual([`Trap trap-d sprung at ${siteTime(1)}`]);
  });

  it('ends the notifications of a message answered 550 as failed, without trying again', async () => {
    await createEmailAlert(owner.username, 'sprung', 'nobody@example.org');
    smtp.refusal = { code: 550, text: 'No such user here' };
    const failed = await sends('failed');

    await send(owner, sprung('trap-x', 1));
    await send(owner, sprung('trap-y', 1));
    clock.advance(WINDOW_MS);
    await until(async () => (await notifications()).every((notification) => notification.status === 'failed'));

    expect(await notifications()).toEqual([
      expect.objectContaining({ status: 'failed', attempts: 1, last_error: 'SMTP 550' }),
      expect.objectContaining({ status: 'failed', attempts: 1, last_error: 'SMTP 550' }),
    ]);
    expect(smtp.attempts).toBe(1);
    expect((await sends('failed')) - failed).toBe(2);
  });

  it("escalates a trap still sprung after --escalate-after to the escalation address by email, the alert's own target keeping its webhook", async () => {
    await cli(
      'alert:create',
      '--user',
      owner.username,
      '--on',
      'sprung',
      '--webhook',
      'http://127.0.0.1:9/unreachable',
      '--escalate-after',
      '20h',
      '--escalate-email',
      'boss@example.org',
    );
    const sprungAt = clock.now();
    await send(owner, reportBody({ dev_id: 'trap-3', time: new Date(sprungAt).toISOString(), event: 'Sprung', status: 'Sprung' }));

    clock.advance(20 * HOUR_MS);
    await until(async () => (await notifications()).some((notification) => notification.event === 'sprung_escalation'));
    clock.advance(WINDOW_MS);
    await until(() => smtp.received.length >= 1);

    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]!.rcptTo).toEqual(['boss@example.org']);
    expect(smtp.received[0]!.mail.subject).toMatch(/^Escalation: trap trap-3 sprung 20 h ago \(.+\) and not set yet/);
  });

  it("alert:test sends a test email now and prints the SMTP server's answer", async () => {
    const alertId = await createEmailAlert(owner.username, 'sprung', 'trapper@example.org');

    const tested = await cli('alert:test', '--id', String(alertId));

    expect(tested).toEqual({
      alert_id: alertId,
      notification_id: expect.any(Number),
      receiver: '@example.org',
      outcome: 'delivered',
      status: 250,
      answer: '250 Accepted: queued as test',
    });
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]!.mail.subject).toBe(
      `Test notification of alert ${alertId} at ${siteWallClock(new Date(clock.now()), config().siteTimezone, clock.now())}`,
    );
    expect(await notifications()).toEqual([expect.objectContaining({ event: 'test', status: 'delivered' })]);
  });

  it('alert:test with a wrong SMTP password fails with the 535 answer and exit status 1, the password named nowhere', async () => {
    const alertId = await createEmailAlert(owner.username, 'sprung', 'trapper@example.org');
    const wrong = 'not-the-password-42';
    const misconfigured = alertsAdmin(testApp, clock, {
      ...config(),
      alerts: { ...config().alerts, email: { ...config().alerts.email, smtp: { url: smtp.url(wrong), from: 'alerts@traps.example.org' } } },
    });

    const failure = (await alertCommands(misconfigured)('alert:test', '--id', String(alertId)).catch(
      (error: unknown) => error,
    )) as CliError;

    expect(failure).toBeInstanceOf(CliError);
    expect(failure.message).toBe('The test notification was not accepted: @example.org answered SMTP 535, not 250.');
    expect(failure.output).toMatchObject({ outcome: 'failed', status: 535, reason: 'SMTP 535' });
    expect(`${failure.message} ${JSON.stringify(failure.output)}`).not.toContain(wrong);
    expect(JSON.stringify(await notifications())).not.toContain(wrong);
    expect(await notifications()).toEqual([expect.objectContaining({ event: 'test', status: 'failed', last_error: 'SMTP 535' })]);
    expect(smtp.received).toHaveLength(0);
  });

  it.each([
    ['STARTTLS', 'starttls'],
    ['implicit TLS (smtps://)', 'implicit'],
  ] as const)('alert:test sends over %s when the URL asks for it', async (_name, tls) => {
    const secure = await new SmtpReceiver(tls).start();
    try {
      const alertId = await createEmailAlert(owner.username, 'sprung', 'trapper@example.org');
      const overTls = alertsAdmin(testApp, clock, {
        ...config(),
        alerts: { ...config().alerts, email: { ...config().alerts.email, smtp: { url: secure.url(), from: 'alerts@traps.example.org' } } },
      });

      const tested = await alertCommands(overTls)('alert:test', '--id', String(alertId));

      expect(tested).toMatchObject({ outcome: 'delivered', status: 250 });
      expect(secure.received).toHaveLength(1);
      expect(secure.received[0]!.secure).toBe(true);
    } finally {
      await secure.stop();
    }
  });
});
