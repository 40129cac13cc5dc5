import request from 'supertest';
import type { DataSource, EntityManager } from 'typeorm';
import type { AlertsAdmin } from '../src/alerts/admin/alerts-admin.service.js';
import { AlertNotificationEntity } from '../src/alerts/alert-notification.entity.js';
import { AlertOutbox, type NewNotification } from '../src/alerts/alert-outbox.js';
import { dueClockSteps, openEpisodeSteps } from '../src/alerts/sprung-clock.js';
import { siteTime as siteWallClock } from '../src/alerts/notification-text.js';
import { SprungEpisodeEntity } from '../src/alerts/sprung-episode.entity.js';
import { APP_CONFIG, type AppConfig } from '../src/config/app-config.js';
import { CountClockSteps1764700000000 } from '../src/database/migrations/1764700000000-CountClockSteps.js';
import { runInTransaction } from '../src/database/run-in-transaction.js';
import * as alerts from './utils/alerts.js';
import { ingestCaller, obtainTokens } from './utils/auth-fixtures.js';
import { FakeClock } from './utils/fake-clock.js';
import { read, type Report, reportBody } from './utils/read-side.js';
import { submit, submitBatch } from './utils/sensor-record-api.js';
import { createTestApp, type TestApp } from './utils/test-app.js';
import { until } from './utils/until.js';
import { WebhookReceiver } from './utils/webhook-receiver.js';

// The alerts' clock looks every second here (at most 60 s in production), so that `silent` and the
// 24-hour clock show without long waits.
process.env.ALERT_CLOCK_INTERVAL = '1';

const HOUR_MS = 3600_000;

/**
 * Alerts end to end (docs/alerts.md): records submitted over HTTP, notifications written with them,
 * sent by the dispatcher to a real HTTP receiver that checks the signature.
 */
describe('Alerts', () => {
  const clock = new FakeClock();
  const receiver = new WebhookReceiver();
  let testApp: TestApp;
  let admin: AlertsAdmin;
  let owner: Awaited<ReturnType<typeof ingestCaller>>;
  let other: Awaited<ReturnType<typeof ingestCaller>>;

  const send = async (caller: { accessToken: string }, readings: Report & { tilt?: string; data?: number }) => {
    const body = reportBody({ timeout: 3600, ...readings }) as { payload_fields: Record<string, unknown> };
    if (readings.tilt !== undefined) body.payload_fields.field_tilt_sensor = [{ value: readings.tilt }];
    if (readings.data !== undefined) body.payload_fields.field_data = [{ value: readings.data }];
    await submit(testApp.app, body, { token: caller.accessToken, format: 'json' }).expect(201);
  };
  /** The reports as one batch, each with an hourly heartbeat like `send`'s. */
  const sendBatch = async (caller: { accessToken: string }, reports: Report[]) => {
    await submitBatch(
      testApp.app,
      reports.map((report) => reportBody({ timeout: 3600, ...report })),
      { token: caller.accessToken },
    ).expect(201);
  };
  // Device times from two hours before the clock's now: recent enough that no 24-hour step is due.
  const deviceInstant = (minutes: number) => new Date(Math.floor(clock.now() / 60_000) * 60_000 - 2 * HOUR_MS + minutes * 60_000);
  const deviceTime = (minutes: number) => deviceInstant(minutes).toISOString();
  const siteTime = (minutes: number) =>
    siteWallClock(deviceInstant(minutes), testApp.app.get<AppConfig>(APP_CONFIG).siteTimezone, clock.now());
  const createWebhookAlert = (user: string, on: string, ...more: string[]) => alerts.createWebhookAlert(admin, receiver, user, on, ...more);
  const notifications = (dataSource: DataSource) =>
    dataSource.query('SELECT id, event, status, attempts, dev_id FROM alert_notifications ORDER BY id') as Promise<
      Array<{ id: number; event: string; status: string; attempts: number; dev_id: string }>
    >;

  /** The first notification's tries and when it is next due, once a failed try was marked (its claim given back). */
  const retryOf = async () => {
    const [row] = await testApp.dataSource.getRepository(AlertNotificationEntity).find({ order: { id: 'ASC' }, take: 1 });
    return row && row.attempts > 0 && row.claimedBy === null ? { attempts: row.attempts, nextAttemptAt: row.nextAttemptAt } : undefined;
  };

  /**
   * The notifications' tries, oldest first, once none is claimed: every try counted (at its claim) has
   * been marked, its next attempt reckoned by the clock of that moment. Undefined while one is claimed.
   */
  const triesMarked = async () => {
    const rows = (await testApp.dataSource.query('SELECT attempts, claimed_by FROM alert_notifications ORDER BY id')) as Array<{
      attempts: number | string;
      claimed_by: string | null;
    }>;
    return rows.some((row) => row.claimed_by !== null) ? undefined : rows.map((row) => Number(row.attempts));
  };

  /** The 24-hour clock's steps of a sprung alert: a reminder after 12 h, the escalation to `webhook` after 20 h. */
  const remindAndEscalate = (webhook: string) => ['--remind-after', '12h', '--escalate-after', '20h', '--escalate-webhook', webhook];
  /** Sets an alert up two days before the clock's now: every step of an episode then comes due after the alert existed. */
  const twoDaysBefore = async <T>(setUp: () => Promise<T>): Promise<T> => {
    clock.advance(-48 * HOUR_MS);
    const made = await setUp();
    clock.advance(48 * HOUR_MS);
    return made;
  };

  /** The events of an alert's notifications, oldest first. */
  const stepsOf = async (alertId: number) =>
    (
      (await testApp.dataSource.query('SELECT event FROM alert_notifications WHERE alert_id = ? ORDER BY id', [alertId])) as Array<{
        event: string;
      }>
    ).map((row) => row.event);
  /** The steps of the 24-hour clock counted on the sensor's (one) episode. */
  const clockStepsOf = async (devId: string) => {
    const rows = (await testApp.dataSource.query('SELECT clock_steps FROM sprung_episodes WHERE dev_id = ?', [devId])) as Array<{
      clock_steps: number | string;
    }>;
    expect(rows).toHaveLength(1);
    return Number(rows[0]!.clock_steps);
  };
  const metrics = () => request(testApp.app.getHttpServer()).get('/metrics').expect(200);
  /** The alert notifications' lines of /metrics. */
  const metricLines = async () => (await metrics()).text.split('\n').filter((line) => line.startsWith('alert_notification'));
  /** Until the dispatcher has marked every notification (a receiver sees a send before it is marked). */
  const settled = () =>
    until(async () => (await notifications(testApp.dataSource)).every((notification) => notification.status !== 'pending'));

  beforeAll(async () => {
    await receiver.start();
    testApp = await createTestApp({ override: clock.install });
    admin = alerts.alertsAdmin(testApp, clock);
  });

  afterAll(async () => {
    await testApp.close();
    await receiver.stop();
  });

  beforeEach(async () => {
    await testApp.reset();
    // Back to the present: tokens expire by the real clock, and the token prune reads this one.
    clock.advance(Math.floor(Date.now() / 1000) * 1000 - clock.now());
    receiver.received.length = 0;
    receiver.answer = { status: 204 };
    [owner, other] = [await ingestCaller(testApp.app), await ingestCaller(testApp.app)];
  });

  it('sends sprung once per sprung trap, signed, with the sensor and the record; a repeated Sprung is no second sprung; reset says for how long', async () => {
    const alertId = await createWebhookAlert(owner.username, 'sprung,reset');

    await send(owner, { dev_id: 'trap-7', time: deviceTime(0) });
    await send(owner, { dev_id: 'trap-7', time: deviceTime(1), event: 'Sprung', status: 'Sprung' });
    await send(owner, { dev_id: 'trap-7', time: deviceTime(2), event: 'Sprung', status: 'Sprung' });
    await send(owner, { dev_id: 'trap-7', time: deviceTime(95), event: 'Set', status: 'Set' });
    await until(() => receiver.received.length >= 2);

    expect(receiver.events()).toEqual(['sprung trap-7', 'reset trap-7']);
    const [sprung, reset] = receiver.received;
    expect(sprung!.signed).toBe(true);
    expect(sprung!.headers['content-type']).toBe('application/json');
    expect(sprung!.headers['idempotency-key']).toBe(String(sprung!.json!.notification_id));
    expect(Number(sprung!.headers['x-signature-timestamp'])).toBe(Math.floor(clock.now() / 1000));
    expect(sprung!.json).toMatchObject({
      alert_id: alertId,
      event: 'sprung',
      occurred_at: deviceTime(1).replace('.000Z', '+00:00'),
      text: `Trap trap-7 sprung at ${siteTime(1)}`,
      sensor: { dev_id: 'trap-7', sprung: true, state: 'ok' },
      record: { nid: expect.any(Number), url: expect.stringMatching(/\/node\/\d+$/) },
    });
    expect(Object.keys(sprung!.json!)).toEqual(['notification_id', 'alert_id', 'event', 'occurred_at', 'text', 'sensor', 'record']);
    expect(reset!.json!.text).toBe(`Trap trap-7 set again at ${siteTime(95)}, after 1 h 34 min sprung`);
    await settled();
    expect(await notifications(testApp.dataSource)).toEqual([
      expect.objectContaining({ event: 'sprung', status: 'delivered', attempts: 1 }),
      expect.objectContaining({ event: 'reset', status: 'delivered', attempts: 1 }),
    ]);
  });

  it("never tells one user's alert of another user's sensor", async () => {
    await createWebhookAlert(owner.username, 'all');

    await send(other, { dev_id: 'trap-7', time: deviceTime(1), event: 'Sprung', status: 'Sprung' });
    await send(owner, { dev_id: 'trap-8', time: deviceTime(2), event: 'Sprung', status: 'Sprung' });
    await until(() => receiver.received.length >= 1);

    expect(receiver.events()).toEqual(['sprung trap-8']);
    expect(await notifications(testApp.dataSource)).toHaveLength(1);
  });

  it('raises nothing for a record older than the latest to say the same, and only for the sensor an alert names', async () => {
    await createWebhookAlert(owner.username, 'sprung,tilted', '--sensor', 'trap-2');

    await send(owner, { dev_id: 'trap-1', time: deviceTime(5), event: 'Sprung', status: 'Sprung' });
    await send(owner, { dev_id: 'trap-2', time: deviceTime(5), event: 'Set', status: 'Set' });
    await send(owner, { dev_id: 'trap-2', time: deviceTime(4), event: 'Sprung', status: 'Sprung', tilt: 'True' });
    await send(owner, { dev_id: 'trap-2', time: deviceTime(6), tilt: 'Fail' });
    await until(() => receiver.received.length >= 1);

    expect(receiver.events()).toEqual(['tilted trap-2']);
    expect(await notifications(testApp.dataSource)).toHaveLength(1);
  });

  it('tells of a Sprung that arrives after a heartbeat dated later, keeps its 24-hour clock, and tells of the Set that ends it', async () => {
    await createWebhookAlert(owner.username, 'sprung,reset');

    // A relay's backlog: the heartbeat dated 11 min came first, the Sprung of minute 1 after it.
    await send(owner, { dev_id: 'trap-r', time: deviceTime(11) });
    await send(owner, { dev_id: 'trap-r', time: deviceTime(1), event: 'Sprung', status: 'Sprung' });
    await until(() => receiver.received.length >= 1);

    expect(receiver.events()).toEqual(['sprung trap-r']);
    expect(receiver.received[0]!.json).toMatchObject({ text: `Trap trap-r sprung at ${siteTime(1)}`, sensor: { sprung: true } });
    const { sensor } = JSON.parse(
      (await read(testApp.app, '/api-sensor/sensors/trap-r?_format=json', owner.accessToken).expect(200)).body as string,
    );
    expect(sensor.sprung).toBe(true);
    expect(Date.parse(sensor.sprung_at)).toBe(deviceInstant(1).getTime());

    await send(owner, { dev_id: 'trap-r', time: deviceTime(6), event: 'Set', status: 'Set' });
    await until(() => receiver.received.length >= 2);

    expect(receiver.events()).toEqual(['sprung trap-r', 'reset trap-r']);
    expect(receiver.received[1]!.json!.text).toBe(`Trap trap-r set again at ${siteTime(6)}, after 5 min sprung`);
    const episodes = await testApp.dataSource.getRepository(SprungEpisodeEntity).find({ where: { devId: 'trap-r' } });
    expect(episodes.map((episode) => [episode.sprungAt.getTime(), episode.resetAt?.getTime()])).toEqual([
      [deviceInstant(1).getTime(), deviceInstant(6).getTime()],
    ]);
  });

  it('sends battery_low once per crossing, armed again only above the threshold + 0.1 V, and bait_low below its level', async () => {
    await createWebhookAlert(owner.username, 'battery_low,bait_low', '--battery-below', '3.3', '--bait-below', '20');

    for (const [minute, voltage] of [
      [1, 3.5],
      [2, 3.2],
      [3, 3.1],
      [4, 3.35],
      [5, 3.25],
      [6, 3.45],
      [7, 3.2],
    ] as const) {
      await send(owner, { dev_id: 'bait-1', time: deviceTime(minute), voltage });
    }
    await send(owner, { dev_id: 'bait-1', time: deviceTime(8), event: 'Baitlevel', data: 25 });
    await send(owner, { dev_id: 'bait-1', time: deviceTime(9), event: 'Baitlevel', data: 15 });
    await until(() => receiver.received.length >= 3);

    expect(receiver.events()).toEqual(['battery_low bait-1', 'battery_low bait-1', 'bait_low bait-1']);
    expect(receiver.received.map((hook) => hook.json!.text)).toEqual([
      `Sensor bait-1 battery low: 3.2 V, below 3.3 V (at ${siteTime(2)})`,
      `Sensor bait-1 battery low: 3.2 V, below 3.3 V (at ${siteTime(7)})`,
      `Bait station bait-1 bait low: 15, below 20 (at ${siteTime(9)})`,
    ]);
  });

  it('sends battery_low again after reports above the threshold + 0.1 V in a row or after one between the threshold and it, for each alert', async () => {
    const [high, low] = [
      await createWebhookAlert(owner.username, 'battery_low', '--battery-below', '3.3'),
      await createWebhookAlert(owner.username, 'battery_low', '--battery-below', '3.0'),
    ];

    for (const [minute, voltage] of [
      [1, 2.9],
      [2, 3.5],
      [3, 3.6],
      [4, 3.7],
      [5, 3.2],
      [6, 3.35],
      [7, 3.5],
      [8, 3.2],
      [9, 3.05],
      [10, 2.95],
    ] as const) {
      await send(owner, { dev_id: 'bait-3', time: deviceTime(minute), voltage });
    }

    const raised = (await testApp.dataSource.query(
      "SELECT alert_id, text FROM alert_notifications WHERE event = 'battery_low' ORDER BY id",
    )) as Array<{ alert_id: number; text: string }>;
    expect(raised.map((row) => ({ alert_id: Number(row.alert_id), text: row.text }))).toEqual([
      { alert_id: high, text: `Sensor bait-3 battery low: 2.9 V, below 3.3 V (at ${siteTime(1)})` },
      { alert_id: low, text: `Sensor bait-3 battery low: 2.9 V, below 3 V (at ${siteTime(1)})` },
      { alert_id: high, text: `Sensor bait-3 battery low: 3.2 V, below 3.3 V (at ${siteTime(5)})` },
      { alert_id: high, text: `Sensor bait-3 battery low: 3.2 V, below 3.3 V (at ${siteTime(8)})` },
      { alert_id: low, text: `Sensor bait-3 battery low: 2.95 V, below 3 V (at ${siteTime(10)})` },
    ]);
    await settled();
  });

  it('sends battery_low from one batch as from its reports one by one: each sensor in record order, for each alert, from the rows before it', async () => {
    const [high, low] = [
      await createWebhookAlert(owner.username, 'battery_low', '--battery-below', '3.3'),
      await createWebhookAlert(owner.username, 'battery_low', '--battery-below', '3.0'),
    ];
    // Fired already for the 3.3 V alert when the batch comes.
    await send(owner, { dev_id: 'bait-4', time: deviceTime(0), voltage: 3.1 });
    const reports = [
      ...[2.9, 3.5, 3.6, 3.2, 3.35, 3.5, 3.2].map((voltage, index) => ({ dev_id: 'bait-4', time: deviceTime(index + 1), voltage })),
      ...[3.25, 3.1, 3.45, 3.2].map((voltage, index) => ({ dev_id: 'bait-5', time: deviceTime(index + 1), voltage })),
    ];
    await sendBatch(owner, reports);
    // The batch left the 3.0 V alert armed for bait-4 (3.5 V after 2.9 V), the 3.3 V one fired (3.2 V last).
    await send(owner, { dev_id: 'bait-4', time: deviceTime(8), voltage: 2.95 });

    const raised = (await testApp.dataSource.query(
      "SELECT alert_id, text FROM alert_notifications WHERE event = 'battery_low' ORDER BY id",
    )) as Array<{ alert_id: number; text: string }>;
    expect(raised.map((row) => [Number(row.alert_id), row.text])).toEqual([
      [high, `Sensor bait-4 battery low: 3.1 V, below 3.3 V (at ${siteTime(0)})`],
      [low, `Sensor bait-4 battery low: 2.9 V, below 3 V (at ${siteTime(1)})`],
      [high, `Sensor bait-4 battery low: 3.2 V, below 3.3 V (at ${siteTime(4)})`],
      [high, `Sensor bait-4 battery low: 3.2 V, below 3.3 V (at ${siteTime(7)})`],
      [high, `Sensor bait-5 battery low: 3.25 V, below 3.3 V (at ${siteTime(1)})`],
      [high, `Sensor bait-5 battery low: 3.2 V, below 3.3 V (at ${siteTime(4)})`],
      [low, `Sensor bait-4 battery low: 2.95 V, below 3 V (at ${siteTime(8)})`],
    ]);
    const rows = (await testApp.dataSource.query('SELECT alert_id, dev_id FROM alert_battery_lows ORDER BY alert_id, dev_id')) as Array<{
      alert_id: number;
      dev_id: string;
    }>;
    expect(rows.map((row) => [Number(row.alert_id), row.dev_id])).toEqual([
      [high, 'bait-4'],
      [high, 'bait-5'],
      [low, 'bait-4'],
    ]);
    await settled();
  });

  it('sends bait_low once per crossing below its level, armed again by a level at or above it; a new alert is armed at once', async () => {
    const first = await createWebhookAlert(owner.username, 'bait_low', '--bait-below', '20');
    for (const [minute, level] of [
      [1, 25],
      [2, 15],
      [3, 12],
      [4, 18],
      [5, 20],
      [6, 19],
      [7, 5],
    ] as const) {
      await send(owner, { dev_id: 'bait-2', time: deviceTime(minute), event: 'Baitlevel', data: level });
    }
    // A report late by device time changes nothing.
    await send(owner, { dev_id: 'bait-2', time: deviceTime(0), event: 'Baitlevel', data: 30 });
    // Device times count from the clock's minute, which the second below may end.
    const [at2, at6] = [siteTime(2), siteTime(6)];
    clock.advance(1000);
    const second = await createWebhookAlert(owner.username, 'bait_low', '--bait-below', '20');
    await send(owner, { dev_id: 'bait-2', time: deviceTime(8), event: 'Baitlevel', data: 4 });

    const raised = (await testApp.dataSource.query(
      "SELECT alert_id, text FROM alert_notifications WHERE event = 'bait_low' ORDER BY id",
    )) as Array<{ alert_id: number; text: string }>;
    expect(raised.map((row) => ({ alert_id: Number(row.alert_id), text: row.text }))).toEqual([
      { alert_id: first, text: `Bait station bait-2 bait low: 15, below 20 (at ${at2})` },
      { alert_id: first, text: `Bait station bait-2 bait low: 19, below 20 (at ${at6})` },
      { alert_id: second, text: `Bait station bait-2 bait low: 4, below 20 (at ${siteTime(8)})` },
    ]);
    await settled();
  });

  it('raises silent by the clock with no traffic at all, and back with the next report', async () => {
    await createWebhookAlert(owner.username, 'silent,back');
    const heardAt = new Date(clock.now());
    await send(owner, { dev_id: 'trap-9', time: deviceTime(0), timeout: 600 });

    // Past the period and the default 15-minute grace: the next pass of the clock finds it.
    clock.advance((600 + 900 + 1) * 1000);
    await until(() => receiver.received.length >= 1);
    expect(receiver.events()).toEqual(['silent trap-9']);
    expect(receiver.received[0]!.json).toMatchObject({ record: null, sensor: { dev_id: 'trap-9', state: 'overdue' } });
    const zone = testApp.app.get<AppConfig>(APP_CONFIG).siteTimezone;
    expect(receiver.received[0]!.json!.text).toBe(
      `Sensor trap-9 silent: last heard at ${siteWallClock(heardAt, zone, clock.now())}, nothing since within its heartbeat period of 10 min (noticed at ${siteWallClock(new Date(clock.now()), zone, clock.now())})`,
    );

    // A token of the clock's present: the first expired while the clock moved.
    owner.accessToken = (await obtainTokens(testApp.app, owner.client, owner.user)).access_token;
    await send(owner, { dev_id: 'trap-9', time: deviceTime(60), timeout: 600 });
    await until(() => receiver.received.length >= 2);
    expect(receiver.events()).toEqual(['silent trap-9', 'back trap-9']);
    expect(await notifications(testApp.dataSource)).toHaveLength(2);
  });

  it('raises back for a report dated before the last that arrives after silent, and silent again at the next silence', async () => {
    await createWebhookAlert(owner.username, 'silent,back');
    await send(owner, { dev_id: 'trap-8', time: deviceTime(60), timeout: 600 });
    clock.advance((600 + 900 + 1) * 1000);
    await until(() => receiver.received.length >= 1);

    // A device time an hour before the last record's: silence is measured by arrival, so this ends it.
    owner.accessToken = (await obtainTokens(testApp.app, owner.client, owner.user)).access_token;
    await send(owner, { dev_id: 'trap-8', time: deviceTime(0), timeout: 600 });
    await until(() => receiver.received.length >= 2);
    expect(receiver.events()).toEqual(['silent trap-8', 'back trap-8']);
    expect(receiver.received[1]!.json).toMatchObject({ sensor: { dev_id: 'trap-8', state: 'ok' } });
    const zone = testApp.app.get<AppConfig>(APP_CONFIG).siteTimezone;
    expect(receiver.received[1]!.json!.text).toBe(
      `Sensor trap-8 back: reported at ${siteWallClock(new Date(clock.now()), zone, clock.now())}, its record dated ${siteTime(0)}`,
    );

    clock.advance((600 + 900 + 1) * 1000);
    await until(() => receiver.received.length >= 3);
    expect(receiver.events()).toEqual(['silent trap-8', 'back trap-8', 'silent trap-8']);
    expect(await notifications(testApp.dataSource)).toHaveLength(3);
  });

  it('keeps the 24-hour clock of a sprung trap: reminder, escalation to the second recipient, deadline; episodes kept', async () => {
    const escalation = new WebhookReceiver();
    await escalation.start();
    try {
      await createWebhookAlert(owner.username, 'sprung', ...remindAndEscalate(escalation.url('/boss')));
      escalation.secret = receiver.secret;
      const sprungAt = clock.now();
      await send(owner, { dev_id: 'trap-3', time: new Date(sprungAt).toISOString(), event: 'Sprung', status: 'Sprung' });
      await until(() => receiver.received.length >= 1);

      clock.advance(12 * HOUR_MS);
      await until(() => receiver.received.length >= 2);
      clock.advance(8 * HOUR_MS);
      await until(() => escalation.received.length >= 1);
      clock.advance(4 * HOUR_MS);
      await until(() => receiver.received.length >= 3);

      expect(receiver.events()).toEqual(['sprung trap-3', 'sprung_reminder trap-3', 'sprung_deadline trap-3']);
      expect(escalation.events()).toEqual(['sprung_escalation trap-3']);
      expect(escalation.received[0]!.signed).toBe(true);
      expect(receiver.received[1]!.json!.text).toMatch(/^Reminder: trap trap-3 sprung 12 h ago \(.+\) and not set yet/);
      const [episode] = (await testApp.dataSource.query('SELECT dev_id, reset_at, first_delivered_at FROM sprung_episodes')) as Array<
        Record<string, unknown>
      >;
      expect(episode).toMatchObject({ dev_id: 'trap-3', reset_at: null });
      expect(episode!.first_delivered_at).not.toBeNull();
      expect(await clockStepsOf('trap-3')).toBe(3);

      // Each step once, however many more passes the clock makes.
      clock.advance(HOUR_MS);
      await new Promise((resolve) => setTimeout(resolve, 2500));
      expect(receiver.received).toHaveLength(3);
      expect(await clockStepsOf('trap-3')).toBe(3);

      // The migration that added the count fills it alike, from the steps' notifications.
      const runner = testApp.dataSource.createQueryRunner();
      try {
        await new CountClockSteps1764700000000().down(runner);
        await new CountClockSteps1764700000000().up(runner);
      } finally {
        await runner.release();
      }
      expect(await clockStepsOf('trap-3')).toBe(3);
    } finally {
      await escalation.stop();
    }
  });

  it('says durations under a minute in seconds: a reminder after 20 s, a trap set again after 30 s', async () => {
    await createWebhookAlert(
      owner.username,
      'sprung,reset',
      '--remind-after',
      '20s',
      '--escalate-after',
      '40s',
      '--escalate-webhook',
      receiver.url('/boss'),
    );
    const sprungAt = clock.now();
    await send(owner, { dev_id: 'trap-quick', time: new Date(sprungAt).toISOString(), event: 'Sprung', status: 'Sprung' });
    await until(() => receiver.received.length >= 1);

    clock.advance(20_000);
    await until(() => receiver.received.length >= 2);
    clock.advance(10_000);
    await send(owner, { dev_id: 'trap-quick', time: new Date(sprungAt + 30_000).toISOString(), event: 'Set', status: 'Set' });
    await until(() => receiver.received.length >= 3);

    expect(receiver.events()).toEqual(['sprung trap-quick', 'sprung_reminder trap-quick', 'reset trap-quick']);
    expect(receiver.received[1]!.json!.text).toMatch(/^Reminder: trap trap-quick sprung 20 s ago \(.+\) and not set yet/);
    expect(receiver.received[2]!.json!.text).toMatch(/^Trap trap-quick set again at .+, after 30 s sprung$/);
    await settled();
  });

  it('gives an alert set up for a trap already sprung no reminder that came due before it existed, and the deadline all the same', async () => {
    await send(owner, { dev_id: 'trap-9', time: new Date(clock.now() - 13 * HOUR_MS).toISOString(), event: 'Sprung', status: 'Sprung' });
    const alertId = await createWebhookAlert(owner.username, 'sprung', '--remind-after', '12h');
    const steps = () => stepsOf(alertId);

    clock.advance(12 * HOUR_MS);
    await until(async () => (await steps()).length >= 1);

    expect(await steps()).toEqual(['sprung_deadline']);
    await settled();
  });

  it('tells of a trap reported 21 h after it was sprung that it was reported late, with no stale reminder or escalation, and the deadline when it comes', async () => {
    const alertId = await twoDaysBefore(() => createWebhookAlert(owner.username, 'sprung', ...remindAndEscalate('https://boss.example/h')));
    const sprungAt = new Date(clock.now() - 21 * HOUR_MS);
    await send(owner, { dev_id: 'trap-late', time: sprungAt.toISOString(), event: 'Sprung', status: 'Sprung' });
    await until(() => receiver.received.length >= 1);

    const zone = testApp.app.get<AppConfig>(APP_CONFIG).siteTimezone;
    expect(receiver.received[0]!.json!.text).toBe(
      `Trap trap-late sprung at ${siteWallClock(sprungAt, zone, clock.now())}, reported 21 h late: the 24-hour deadline is ${siteWallClock(
        new Date(sprungAt.getTime() + 24 * HOUR_MS),
        zone,
        clock.now(),
        'date',
      )}`,
    );
    clock.advance(3 * HOUR_MS);
    await until(async () => (await stepsOf(alertId)).includes('sprung_deadline'));
    // The pass that raised the deadline found the reminder and escalation due as well, and passed them over.
    expect(await stepsOf(alertId)).toEqual(['sprung', 'sprung_deadline']);
    await until(() => receiver.received.length >= 2);
  });

  it("tells of a trap reported 26 h after it was sprung that its deadline passed, and raises the deadline at the clock's next pass", async () => {
    const alertId = await twoDaysBefore(() => createWebhookAlert(owner.username, 'sprung'));
    const sprungAt = new Date(clock.now() - 26 * HOUR_MS);
    await send(owner, { dev_id: 'trap-later', time: sprungAt.toISOString(), event: 'Sprung', status: 'Sprung' });
    await until(async () => (await stepsOf(alertId)).includes('sprung_deadline'));

    expect(await stepsOf(alertId)).toEqual(['sprung', 'sprung_deadline']);
    await until(() => receiver.received.length >= 2);
    const zone = testApp.app.get<AppConfig>(APP_CONFIG).siteTimezone;
    // The deadline always dated; with its year too when it fell, 2 h before now, in the site's last year.
    expect(receiver.received[0]!.json!.text).toBe(
      `Trap trap-later sprung at ${siteWallClock(sprungAt, zone, clock.now())}, reported 1 d 2 h late: the 24-hour deadline passed at ${siteWallClock(
        new Date(sprungAt.getTime() + 24 * HOUR_MS),
        zone,
        clock.now(),
        'date',
      )}`,
    );
    expect(receiver.received[1]!.json!.text).toMatch(
      /^Deadline: trap trap-later sprung 1 d 2 h ago \(.+\) and still not set: the 24 hours are up$/,
    );
  });

  it('tells of a trap reported late in one batch with the Set that followed it when it was set again, not that its deadline passed', async () => {
    const alertId = await twoDaysBefore(() => createWebhookAlert(owner.username, 'sprung,reset'));
    const sprungAt = new Date(clock.now() - 26 * HOUR_MS);
    const setAt = new Date(sprungAt.getTime() + 2 * HOUR_MS);
    const reports = [
      { dev_id: 'trap-backlog', time: sprungAt.toISOString(), event: 'Sprung', status: 'Sprung' },
      { dev_id: 'trap-backlog', time: setAt.toISOString(), event: 'Set', status: 'Set' },
    ];
    await sendBatch(owner, reports);
    await until(() => receiver.received.length >= 2);

    const zone = testApp.app.get<AppConfig>(APP_CONFIG).siteTimezone;
    expect(receiver.received.map((received) => received.json!.text)).toEqual([
      `Trap trap-backlog sprung at ${siteWallClock(sprungAt, zone, clock.now())}, reported 1 d 2 h late; set again at ${siteWallClock(setAt, zone, clock.now())}`,
      `Trap trap-backlog set again at ${siteWallClock(setAt, zone, clock.now())}, after 2 h sprung, reported 1 d late`,
    ]);
    expect(await stepsOf(alertId)).toEqual(['sprung', 'reset']);
  });

  it("says of a Set reported after its trap's deadline went out how late it was reported", async () => {
    const alertId = await createWebhookAlert(owner.username, 'sprung,reset');
    const sprungAt = new Date(clock.now());
    await send(owner, { dev_id: 'trap-slow-set', time: sprungAt.toISOString(), event: 'Sprung', status: 'Sprung' });
    clock.advance(25 * HOUR_MS);
    await until(async () => (await stepsOf(alertId)).includes('sprung_deadline'));

    // Set an hour after it was sprung, heard of a day later (a token of the clock's present: the first expired).
    owner.accessToken = (await obtainTokens(testApp.app, owner.client, owner.user)).access_token;
    const setAt = new Date(sprungAt.getTime() + HOUR_MS);
    await send(owner, { dev_id: 'trap-slow-set', time: setAt.toISOString(), event: 'Set', status: 'Set' });
    await until(async () => (await stepsOf(alertId)).includes('reset'));

    const zone = testApp.app.get<AppConfig>(APP_CONFIG).siteTimezone;
    const [reset] = (await testApp.dataSource.query("SELECT text FROM alert_notifications WHERE alert_id = ? AND event = 'reset'", [
      alertId,
    ])) as Array<{ text: string }>;
    expect(reset!.text).toBe(
      `Trap trap-slow-set set again at ${siteWallClock(setAt, zone, clock.now())}, after 1 h sprung, reported 1 d late`,
    );
    await settled();
  });

  it("writes no step of an episode a Set closed after the clock's pass read it open: the reset stays the episode's last notification", async () => {
    const alertId = await createWebhookAlert(owner.username, 'sprung,reset');
    const sprungAt = clock.now() - 23 * HOUR_MS;
    await send(owner, { dev_id: 'trap-race', time: new Date(sprungAt).toISOString(), event: 'Sprung', status: 'Sprung' });
    const setAgain = () => send(owner, { dev_id: 'trap-race', time: new Date(clock.now()).toISOString(), event: 'Set', status: 'Set' });
    // A pass at a moment the running clock (standing still an hour before) does not reach: the deadline is due there.
    const passAt = sprungAt + 24 * HOUR_MS + 1000;
    const outbox = testApp.app.get(AlertOutbox);
    const write = async (manager: EntityManager, due: NewNotification[]) => {
      const kept = await openEpisodeSteps(manager, due);
      await outbox.add(manager, kept);
      return { due: due.map((step) => step.event), kept: kept.map((step) => step.event) };
    };
    // The Set commits between the pass's read of the open episodes and its write. MySQL gives the Set its
    // own connection, so the pass is one transaction; SQLite runs a process's transactions one after another.
    const dataSource = testApp.dataSource;
    const pass =
      dataSource.options.type === 'mysql'
        ? await dataSource.transaction(async (manager) => {
            const due = await dueClockSteps(manager, passAt);
            await setAgain();
            return write(manager, due);
          })
        : await runInTransaction(dataSource, (manager) => dueClockSteps(manager, passAt)).then(async (due) => {
            await setAgain();
            return runInTransaction(dataSource, (manager) => write(manager, due));
          });

    expect(pass).toEqual({ due: ['sprung_deadline'], kept: [] });
    expect(await stepsOf(alertId)).toEqual(['sprung', 'reset']);
    expect(await clockStepsOf('trap-race')).toBe(0);
    await until(() => receiver.received.length >= 2);
    await settled();
    expect(receiver.events()).toEqual(['sprung trap-race', 'reset trap-race']);
  });

  it('delivers everything after the receiver was down for a while, in order per sensor', async () => {
    await createWebhookAlert(owner.username, 'sprung,reset');
    await receiver.stop();

    for (let minute = 1; minute <= 6; minute++) {
      const event = minute % 2 ? 'Sprung' : 'Set';
      for (const devId of ['trap-a', 'trap-b']) await send(owner, { dev_id: devId, time: deviceTime(minute), event, status: event });
    }
    // Each sensor's first tried, refused by a closed port, and waiting for its next try.
    await until(triesMarked, (tries) => tries?.filter((attempts) => attempts > 0).length === 2);
    await receiver.start();
    receiver.answer = { status: 503, headers: { 'Retry-After': '30' } };
    clock.advance(20 * 60_000);
    await until(triesMarked, (tries) => tries?.filter((attempts) => attempts > 1).length === 2);
    receiver.answer = { status: 204 };
    // Past the longest backoff: every notification is due again.
    clock.advance(20 * 60_000);
    await until(() => receiver.received.length >= 12);

    for (const devId of ['trap-a', 'trap-b']) {
      expect(receiver.events().filter((event) => event.endsWith(devId))).toEqual(
        ['sprung', 'reset', 'sprung', 'reset', 'sprung', 'reset'].map((event) => `${event} ${devId}`),
      );
    }
    await settled();
    expect((await notifications(testApp.dataSource)).every((notification) => notification.status === 'delivered')).toBe(true);
  });

  it("dates an event of another day than the site's today, and leaves the date out for one of today", async () => {
    await createWebhookAlert(owner.username, 'tilted');
    const zone = testApp.app.get<AppConfig>(APP_CONFIG).siteTimezone;
    const threeDaysAgo = new Date(deviceInstant(0).getTime() - 70 * HOUR_MS);
    // This very minute: the site's today, whatever the hour.
    const thisMinute = new Date(Math.floor(clock.now() / 60_000) * 60_000);

    await send(owner, { dev_id: 'trap-old', time: threeDaysAgo.toISOString(), tilt: 'True' });
    await send(owner, { dev_id: 'trap-new', time: thisMinute.toISOString(), tilt: 'True' });
    await until(() => receiver.received.length >= 2);

    const day = new Intl.DateTimeFormat('en-NZ', { timeZone: zone, day: 'numeric', month: 'short' }).format(threeDaysAgo);
    const textOf = (devId: string) => receiver.received.map((hook) => String(hook.json!.text)).find((text) => text.includes(` ${devId} `));
    // The year too, when three days ago was last year.
    expect(textOf('trap-old')).toMatch(
      new RegExp(`^Trap trap-old tilt sensor says True at \\d\\d:\\d\\d on ${day}( \\d{4})? \\(NZ[DS]T\\)$`),
    );
    expect(textOf('trap-new')).toMatch(/^Trap trap-new tilt sensor says True at \d\d:\d\d \(NZ[DS]T\)$/);
  });

  it('ends a notification answered 4xx as failed, without trying again', async () => {
    await createWebhookAlert(owner.username, 'sprung');
    receiver.answer = { status: 410 };

    await send(owner, { dev_id: 'trap-4', time: deviceTime(1), event: 'Sprung', status: 'Sprung' });
    await until(async () => (await notifications(testApp.dataSource))[0]?.status === 'failed');

    expect(await notifications(testApp.dataSource)).toEqual([expect.objectContaining({ status: 'failed', attempts: 1 })]);
  });

  it('puts a first retry, drawn under a second, on the next whole second: not due at once where datetime keeps no fraction', async () => {
    await createWebhookAlert(owner.username, 'sprung');
    receiver.answer = { status: 503 };
    // The clock stands still on a whole second: the first backoff (0.5 to 1 s) ends within the next one.
    const triedAt = clock.now();
    await send(owner, { dev_id: 'trap-r', time: deviceTime(1), event: 'Sprung', status: 'Sprung' });
    await until(async () => (await retryOf()) !== undefined);

    expect(await retryOf()).toEqual({ attempts: 1, nextAttemptAt: new Date(triedAt + 1000) });
  });

  it('shows sends by channel and outcome, the time from commit to delivery, and what is pending, in /metrics', async () => {
    await createWebhookAlert(owner.username, 'sprung');
    receiver.answer = { status: 500 };
    await send(owner, { dev_id: 'trap-m', time: deviceTime(1), event: 'Sprung', status: 'Sprung' });
    // The try is counted when it is claimed, before the send: the clock moves only once the retry is
    // marked, its next attempt reckoned from the time before the move, so that the move makes it due.
    await until(retryOf, (retry) => retry?.attempts === 1);
    // The next pass of the alerts' clock counts the one waiting for its retry.
    await until(metricLines, (lines) => lines.includes('alert_notifications_pending 1'));
    receiver.answer = { status: 204 };
    clock.advance(60_000);
    // The delivery is counted just after it is marked, so the pass that counts nothing pending can come first.
    await until(
      metricLines,
      (lines) => lines.includes('alert_notifications_pending 0') && lines.some((line) => line.includes('outcome="delivered"')),
    );

    const text = (await metrics()).text;
    expect(text).toMatch(/^alert_notification_sends_total\{channel="webhook",outcome="retry"\} [1-9]\d*$/m);
    expect(text).toMatch(/^alert_notification_sends_total\{channel="webhook",outcome="delivered"\} [1-9]\d*$/m);
    expect(text).toMatch(/^alert_notification_delivery_seconds_count\{channel="webhook"\} [1-9]\d*$/m);
    expect(text).toMatch(/^alert_notifications_oldest_pending_age_seconds 0$/m);
  });

  it("lists the caller's own sprung episodes since a time, with whether each was set within 24 hours, in JSON and CSV", async () => {
    await send(owner, { dev_id: 'trap-e', time: deviceTime(0), event: 'Sprung', status: 'Sprung' });
    await send(owner, { dev_id: 'trap-e', time: deviceTime(90), event: 'Set', status: 'Set' });
    await send(owner, { dev_id: 'trap-f', time: deviceTime(100), event: 'Sprung', status: 'Sprung' });
    await send(other, { dev_id: 'trap-g', time: deviceTime(100), event: 'Sprung', status: 'Sprung' });
    const since = encodeURIComponent(deviceTime(-1));

    const json = await read(testApp.app, `/api-sensor/sprung-episodes?since=${since}`, owner.accessToken).expect(200);
    const csv = await read(testApp.app, `/api-sensor/sprung-episodes?since=${since}&_format=csv`, owner.accessToken).expect(200);
    const later = await read(testApp.app, `/api-sensor/sprung-episodes?since=${encodeURIComponent(deviceTime(95))}`, owner.accessToken);

    const utc = (minutes: number) => deviceTime(minutes).replace('.000Z', '+00:00');
    expect(JSON.parse(json.body as string)).toEqual({
      episodes: [
        { dev_id: 'trap-e', sprung_at: utc(0), reset_at: utc(90), first_notified_at: null, hours_sprung: 1.5, reset_within_24h: true },
        {
          dev_id: 'trap-f',
          sprung_at: utc(100),
          reset_at: null,
          first_notified_at: null,
          hours_sprung: expect.any(Number),
          reset_within_24h: null,
        },
      ],
    });
    // The json format's Content-Type, as every route that negotiates formats answers it (the sensors list's).
    const sensors = await read(testApp.app, '/api-sensor/sensors', owner.accessToken).expect(200);
    expect([json.headers['content-type'], sensors.headers['content-type']]).toEqual(['application/json', 'application/json']);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect((csv.body as string).split('\r\n')[0]).toBe('dev_id,sprung_at,reset_at,first_notified_at,hours_sprung,reset_within_24h');
    expect(csv.body as string).toContain(`trap-e,${utc(0)},${utc(90)},,1.5,`);
    expect(JSON.parse(later.body as string).episodes.map((episode: { dev_id: string }) => episode.dev_id)).toEqual(['trap-f']);
    // The site's wall clock in the device time syntax's space form, its space encoded or sent as a +.
    const local = new Intl.DateTimeFormat('sv-SE', {
      timeZone: testApp.app.get<AppConfig>(APP_CONFIG).siteTimezone,
      dateStyle: 'short',
      timeStyle: 'short',
    }).format(deviceInstant(95));
    for (const space of ['%20', '+']) {
      const spaced = await read(testApp.app, `/api-sensor/sprung-episodes?since=${local.replace(' ', space)}`, owner.accessToken).expect(
        200,
      );
      expect(JSON.parse(spaced.body as string).episodes.map((episode: { dev_id: string }) => episode.dev_id)).toEqual(['trap-f']);
    }
    await read(testApp.app, '/api-sensor/sprung-episodes?since=yesterday', owner.accessToken).expect(400);
    await read(testApp.app, '/api-sensor/sprung-episodes').expect(403);
  });

  it('keeps the episodes of one batch in its order: a trap sprung, set and sprung again has one closed episode and one open', async () => {
    const reports = [
      { dev_id: 'trap-h', time: deviceTime(0), event: 'Sprung', status: 'Sprung' },
      { dev_id: 'trap-h', time: deviceTime(10), event: 'Set', status: 'Set' },
      { dev_id: 'trap-h', time: deviceTime(20), event: 'Sprung', status: 'Sprung' },
    ];
    await sendBatch(owner, reports);

    const episodes = await testApp.dataSource.getRepository(SprungEpisodeEntity).find({ where: { devId: 'trap-h' }, order: { id: 'ASC' } });
    expect(episodes.map((episode) => [episode.sprungAt.getTime(), episode.resetAt?.getTime() ?? null])).toEqual([
      [deviceInstant(0).getTime(), deviceInstant(10).getTime()],
      [deviceInstant(20).getTime(), null],
    ]);
  });

  it("names each notification's own episode when one batch springs and sets several traps, and notes each episode's first delivery", async () => {
    await createWebhookAlert(owner.username, 'sprung,reset');
    const reports = [
      { dev_id: 'trap-i', time: deviceTime(0), event: 'Sprung', status: 'Sprung' },
      { dev_id: 'trap-j', time: deviceTime(1), event: 'Sprung', status: 'Sprung' },
      { dev_id: 'trap-i', time: deviceTime(10), event: 'Set', status: 'Set' },
      { dev_id: 'trap-k', time: deviceTime(2), event: 'Sprung', status: 'Sprung' },
    ];
    await sendBatch(owner, reports);
    await until(() => receiver.received.length >= 4);

    const episodes = testApp.dataSource.getRepository(SprungEpisodeEntity);
    const written = await testApp.dataSource.getRepository(AlertNotificationEntity).find({ order: { id: 'ASC' } });
    const named = await Promise.all(
      written.map(async ({ devId, event, episodeId }) => {
        const episode = await episodes.findOneByOrFail({ id: episodeId! });
        return [devId, event, episode.devId, episode.sprungAt.getTime()];
      }),
    );
    // The batch's records are applied sensor by sensor: the rows' order is not the reports'.
    expect(named.sort()).toEqual([
      ['trap-i', 'reset', 'trap-i', deviceInstant(0).getTime()],
      ['trap-i', 'sprung', 'trap-i', deviceInstant(0).getTime()],
      ['trap-j', 'sprung', 'trap-j', deviceInstant(1).getTime()],
      ['trap-k', 'sprung', 'trap-k', deviceInstant(2).getTime()],
    ]);
    await until(
      () => episodes.find({ order: { id: 'ASC' } }),
      (all) => all.length === 3 && all.every((episode) => episode.firstDeliveredAt !== null),
    );
  });

  it('posts {"text": …} for Slack and the text itself for ntfy, signed the same way', async () => {
    await createWebhookAlert(owner.username, 'sprung', '--format', 'slack');
    const secret = receiver.secret;
    await createWebhookAlert(owner.username, 'sprung', '--format', 'text', `--secret=${secret}`);

    await send(owner, { dev_id: 'trap-5', time: deviceTime(1), event: 'Sprung', status: 'Sprung' });
    await until(() => receiver.received.length >= 2);

    const bodies = receiver.received.map((hook) => [hook.headers['content-type'], hook.body, hook.signed]).sort();
    expect(bodies).toEqual([
      ['application/json', `{"text":"Trap trap-5 sprung at ${siteTime(1)}"}`, true],
      ['text/plain; charset=utf-8', `Trap trap-5 sprung at ${siteTime(1)}`, true],
    ]);
  });
});
