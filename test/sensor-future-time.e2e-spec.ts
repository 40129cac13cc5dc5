import type { AlertsAdmin } from '../src/alerts/admin/alerts-admin.service.js';
import { OrderTimesOfClocksAhead1764750000000 } from '../src/database/migrations/1764750000000-OrderTimesOfClocksAhead.js';
import * as alerts from './utils/alerts.js';
import { ingestCaller, obtainTokens } from './utils/auth-fixtures.js';
import { FakeClock } from './utils/fake-clock.js';
import { read, report, SENSORS_URL } from './utils/read-side.js';
import { createTestApp, type TestApp } from './utils/test-app.js';
import { until } from './utils/until.js';
import { WebhookReceiver } from './utils/webhook-receiver.js';

const YEAR_MS = 365 * 24 * 3600_000;

/**
 * A device clock ahead of the service's (docs/interface.md#sensors): a device time more than 300 s
 * ahead of the record's receipt places the record at its receipt, so a later Set still resets the
 * trap and its 24 hours run; a clock a few seconds ahead orders by the device's times as ever.
 */
describe('A device time ahead of the clock', () => {
  const clock = new FakeClock();
  const receiver = new WebhookReceiver();
  let testApp: TestApp;
  let admin: AlertsAdmin;
  let owner: Awaited<ReturnType<typeof ingestCaller>>;

  const utc = (instant: number) => new Date(instant).toISOString().replace('.000Z', '+00:00');
  const sensor = async (devId: string) => {
    const response = await read(testApp.app, `${SENSORS_URL}/${devId}?records=5`, owner.accessToken).expect(200);
    return JSON.parse(response.body as string) as {
      sensor: { sprung: boolean; sprung_at: string | null; last_event: string; last_nid: number };
      records: Array<{ nid: [{ value: number }]; field_date: [{ value: string }] }>;
    };
  };
  /** The owner's episodes sprung since an hour before `instant`. */
  const episodesAround = async (instant: number) => {
    const since = encodeURIComponent(utc(instant - 3600_000));
    const response = await read(testApp.app, `/api-sensor/sprung-episodes?since=${since}`, owner.accessToken).expect(200);
    return (JSON.parse(response.body as string) as { episodes: Array<Record<string, unknown>> }).episodes;
  };

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
    // Back to the present: tokens expire by the real clock.
    clock.advance(Math.floor(Date.now() / 1000) * 1000 - clock.now());
    receiver.received.length = 0;
    receiver.answer = { status: 204 };
    owner = await ingestCaller(testApp.app);
    await alerts.createWebhookAlert(admin, receiver, owner.username, 'sprung,reset');
  });

  it('resets a trap sprung by a report dated a year ahead when a Set at the right time follows, raising reset and closing the episode', async () => {
    const received = clock.now();
    const sprungNid = await report(testApp.app, owner.accessToken, {
      dev_id: 'FUT-1',
      time: new Date(received + YEAR_MS).toISOString(),
      event: 'Sprung',
      status: 'Sprung',
    });
    expect((await sensor('FUT-1')).sensor).toMatchObject({ sprung: true, last_nid: sprungNid });

    const setNid = await report(testApp.app, owner.accessToken, { dev_id: 'FUT-1', time: new Date(received).toISOString(), event: 'Set' });
    await until(() => receiver.received.length >= 2);

    expect(receiver.events()).toEqual(['sprung FUT-1', 'reset FUT-1']);
    const after = await sensor('FUT-1');
    expect(after.sensor).toMatchObject({ sprung: false, sprung_at: null, last_event: 'Set', last_nid: setNid });
    // The records keep their device times as sent, and are listed newest device time first.
    expect(after.records.map((record) => record.nid[0].value)).toEqual([sprungNid, setNid]);
    // Rendered in SITE_TIMEZONE, whose year can already be the next one: the instant is what was sent.
    expect(Date.parse(after.records[0]!.field_date[0].value)).toBe(received + YEAR_MS);
    expect(await episodesAround(received)).toEqual([
      expect.objectContaining({ dev_id: 'FUT-1', sprung_at: utc(received), reset_at: utc(received), reset_within_24h: true }),
    ]);
  });

  it('runs the 24 hours of a trap sprung with a device time far ahead from when the report was received', async () => {
    const received = clock.now();
    await report(testApp.app, owner.accessToken, { dev_id: 'FUT-2', time: new Date(received + YEAR_MS).toISOString(), event: 'Sprung' });
    clock.advance(25 * 3600_000);
    owner = { ...owner, accessToken: (await obtainTokens(testApp.app, owner.client, owner.user)).access_token };

    expect(await episodesAround(received)).toEqual([
      expect.objectContaining({ dev_id: 'FUT-2', sprung_at: utc(received), reset_at: null, hours_sprung: 25, reset_within_24h: false }),
    ]);
  });

  it('orders a device clock a few seconds ahead by its own times: an earlier Set arriving after is late, a later one resets', async () => {
    const now = clock.now();
    await report(testApp.app, owner.accessToken, { dev_id: 'SKEW-1', time: new Date(now + 30_000).toISOString(), event: 'Sprung' });
    clock.advance(5000);
    await report(testApp.app, owner.accessToken, { dev_id: 'SKEW-1', time: new Date(now + 10_000).toISOString(), event: 'Set' });
    expect((await sensor('SKEW-1')).sensor).toMatchObject({ sprung: true, last_event: 'Sprung' });

    clock.advance(5000);
    await report(testApp.app, owner.accessToken, { dev_id: 'SKEW-1', time: new Date(now + 40_000).toISOString(), event: 'Set' });
    await until(() => receiver.received.length >= 2);

    expect(receiver.events()).toEqual(['sprung SKEW-1', 'reset SKEW-1']);
    expect(await episodesAround(now)).toEqual([
      expect.objectContaining({ dev_id: 'SKEW-1', sprung_at: utc(now + 30_000), reset_at: utc(now + 40_000), reset_within_24h: true }),
    ]);
  });

  it('raises bait_low by order time: a low level after a low one dated a year ahead is no new crossing, a low one after a refill dated so is', async () => {
    await alerts.createWebhookAlert(admin, receiver, owner.username, 'bait_low', '--bait-below', '20');
    const level = async (data: number, ahead: number) => {
      clock.advance(60_000);
      const time = new Date(clock.now() + ahead).toISOString();
      return report(testApp.app, owner.accessToken, { dev_id: 'BAIT-1', time, event: 'Baitlevel', data });
    };
    const lowAhead = await level(15, YEAR_MS);
    await level(12, 0);
    await level(30, YEAR_MS);
    const lowAfterRefill = await level(10, 0);

    // Written in each record's transaction: the rows are there once it answered 201.
    const written = await testApp.dataSource.query("SELECT event, record_nid FROM alert_notifications WHERE dev_id = 'BAIT-1' ORDER BY id");
    expect(written).toEqual([
      { event: 'bait_low', record_nid: lowAhead },
      { event: 'bait_low', record_nid: lowAfterRefill },
    ]);
    await until(() => receiver.received.length >= 2);
    expect(receiver.events()).toEqual(['bait_low BAIT-1', 'bait_low BAIT-1']);
  });

  it('re-places, by migration, a trap held sprung by a device time far ahead as stored before the rule: its next Set resets it', async () => {
    const received = clock.now();
    const ahead = new Date(received + YEAR_MS).toISOString();
    await report(testApp.app, owner.accessToken, { dev_id: 'FUT-3', time: ahead, event: 'Sprung', voltage: 3.2 });
    const times = async () =>
      (
        (await testApp.dataSource.query(
          'SELECT s.last_device_time, s.trap_status_time, s.last_battery_time, e.sprung_at FROM sensor s JOIN sprung_episodes e ON e.dev_id = s.dev_id',
        )) as Array<Record<string, Date | string>>
      ).map((row) => Object.values(row).map((time) => new Date(time instanceof Date ? time : `${time.replace(' ', 'T')}Z`).getTime()));
    const migration = new OrderTimesOfClocksAhead1764750000000();
    const runner = testApp.dataSource.createQueryRunner();
    try {
      // Back to the times the service stored before the rule (the device's), then forward again.
      await migration.down(runner);
      expect(await times()).toEqual([Array(4).fill(received + YEAR_MS)]);
      await migration.up(runner);
    } finally {
      await runner.release();
    }
    expect(await times()).toEqual([Array(4).fill(received)]);

    clock.advance(60_000);
    await report(testApp.app, owner.accessToken, { dev_id: 'FUT-3', time: new Date(clock.now()).toISOString(), event: 'Set' });
    await until(() => receiver.received.length >= 2);
    expect(receiver.events()).toEqual(['sprung FUT-3', 'reset FUT-3']);
  });
});
