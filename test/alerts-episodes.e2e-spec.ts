import type { AlertsAdmin } from '../src/alerts/admin/alerts-admin.service.js';
import { AlertNotificationEntity } from '../src/alerts/alert-notification.entity.js';
import { siteTime as siteWallClock } from '../src/alerts/notification-text.js';
import { SprungEpisodeEntity } from '../src/alerts/sprung-episode.entity.js';
import { APP_CONFIG, type AppConfig } from '../src/config/app-config.js';
import { SensorRecordEntity } from '../src/sensor-record/sensor-record.entity.js';
import { formatSiteDate } from '../src/serialization/timestamp-format.js';
import * as alerts from './utils/alerts.js';
import { ingestCaller } from './utils/auth-fixtures.js';
import { testEngine } from './utils/engine.js';
import { FakeClock } from './utils/fake-clock.js';
import { type Report, reportBody } from './utils/read-side.js';
import { statementKind, statementsDuring } from './utils/record-statements.js';
import { submit, submitBatch } from './utils/sensor-record-api.js';
import { createTestApp, type TestApp } from './utils/test-app.js';
import { until } from './utils/until.js';
import { WebhookReceiver } from './utils/webhook-receiver.js';

const HOUR_MS = 3600_000;

/**
 * The sprung episodes a batch of records keeps (docs/alerts.md#the-24-hour-clock): each sensor's
 * Sprung and Set reports in record order open and close them as they would one record at a time,
 * and the batch's episodes take a fixed number of statements, sent together on MySQL.
 */
describe('Alerts: the sprung episodes of a batch', () => {
  const clock = new FakeClock();
  const receiver = new WebhookReceiver();
  let testApp: TestApp;
  let admin: AlertsAdmin;
  let owner: Awaited<ReturnType<typeof ingestCaller>>;

  // Device times from two hours before the clock's now: recent enough that no 24-hour step is due.
  const deviceInstant = (minutes: number) => new Date(Math.floor(clock.now() / 60_000) * 60_000 - 2 * HOUR_MS + minutes * 60_000);
  const sprung = (devId: string, minutes: number): Report => ({
    dev_id: devId,
    time: deviceInstant(minutes).toISOString(),
    event: 'Sprung',
    status: 'Sprung',
  });
  const set = (devId: string, minutes: number): Report => ({
    dev_id: devId,
    time: deviceInstant(minutes).toISOString(),
    event: 'Set',
    status: 'Set',
  });
  const siteTime = (minutes: number) =>
    siteWallClock(deviceInstant(minutes), testApp.app.get<AppConfig>(APP_CONFIG).siteTimezone, clock.now());

  /** trap-m and trap-o are sprung before the batch, each by a record of its own. */
  const springBefore = async () => {
    for (const report of [sprung('trap-m', 0), sprung('trap-o', 1)])
      await submit(testApp.app, reportBody({ timeout: 3600, ...report }), { token: owner.accessToken, format: 'json' }).expect(201);
  };
  /**
   * One batch: trap-m set, sprung, set and sprung again; trap-n sprung and set; trap-o set; trap-p
   * sprung. The batch's records are applied sensor by sensor, each sensor's in this order.
   */
  const BATCH = [
    set('trap-m', 10),
    sprung('trap-n', 11),
    set('trap-o', 12),
    sprung('trap-p', 13),
    sprung('trap-m', 20),
    set('trap-n', 21),
    set('trap-m', 30),
    sprung('trap-m', 40),
  ];
  const submitTheBatch = () =>
    submitBatch(
      testApp.app,
      BATCH.map((report) => reportBody({ timeout: 3600, ...report })),
      { token: owner.accessToken },
    ).expect(201);

  /** The nid of the sensor's record of that device time. */
  const nidOf = async (devId: string, minutes: number) => {
    const records = await testApp.dataSource.getRepository(SensorRecordEntity).findBy({ devId });
    const [record] = records.filter((stored) => stored.fieldDate.getTime() === deviceInstant(minutes).getTime());
    return record!.nid;
  };
  /** An episode as its row holds it: sensor, sprung (time, record), reset (time, record), the clock's steps. */
  const episodeRow = (episode: SprungEpisodeEntity) => [
    episode.devId,
    episode.sprungAt.getTime(),
    episode.sprungNid,
    episode.resetAt?.getTime() ?? null,
    episode.resetNid,
    episode.clockSteps,
  ];
  /** The row an episode sprung at `from` and set at `to` (null: still open) must have, its records read by their device times. */
  const expectedRow = async (devId: string, from: number, to: number | null) => [
    devId,
    deviceInstant(from).getTime(),
    await nidOf(devId, from),
    to === null ? null : deviceInstant(to).getTime(),
    to === null ? null : await nidOf(devId, to),
    0,
  ];
  /** Every episode, the oldest first. */
  const episodes = () => testApp.dataSource.getRepository(SprungEpisodeEntity).find({ order: { id: 'ASC' } });
  /** The episodes one record at a time would have written, in the order it would have opened them. */
  const episodesOneByOne = async () => [
    await expectedRow('trap-m', 0, 10),
    await expectedRow('trap-o', 1, 12),
    await expectedRow('trap-m', 20, 30),
    await expectedRow('trap-m', 40, null),
    await expectedRow('trap-n', 11, 21),
    await expectedRow('trap-p', 13, null),
  ];

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
  });

  it('closes the episode left open before the batch at a first Set, inserts one sprung and set in the batch closed, and leaves the last Sprung open', async () => {
    await springBefore();

    await submitTheBatch();

    const kept = await episodes();
    expect(kept.map(episodeRow)).toEqual(await episodesOneByOne());
    expect(kept.map((episode) => episode.firstDeliveredAt)).toEqual(kept.map(() => null));
  });

  it('names in each notification the episode its Sprung opened or its Set closed, and counts the time sprung from that episode', async () => {
    await alerts.createWebhookAlert(admin, receiver, owner.username, 'sprung,reset');
    await springBefore();

    await submitTheBatch();

    expect((await episodes()).map(episodeRow)).toEqual(await episodesOneByOne());
    const byId = new Map((await episodes()).map((episode) => [episode.id, episode]));
    const written = await testApp.dataSource.getRepository(AlertNotificationEntity).find({ order: { id: 'ASC' } });
    const named = written.map(({ event, devId, recordNid, episodeId, text }) => {
      const episode = byId.get(episodeId!)!;
      return [devId, event, episode.devId, event === 'sprung' ? episode.sprungNid : episode.resetNid, recordNid, text];
    });
    const notified = async (event: 'sprung' | 'reset', devId: string, minutes: number, text: string) => {
      const nid = await nidOf(devId, minutes);
      return [devId, event, devId, nid, nid, text];
    };
    const resetNotice = (devId: string, minutes: number, after: number) =>
      notified('reset', devId, minutes, `Trap ${devId} set again at ${siteTime(minutes)}, after ${after} min sprung`);
    const sprungNotice = (devId: string, minutes: number) =>
      notified('sprung', devId, minutes, `Trap ${devId} sprung at ${siteTime(minutes)}`);
    expect(named.sort()).toEqual(
      [
        await sprungNotice('trap-m', 0),
        await sprungNotice('trap-o', 1),
        await resetNotice('trap-m', 10, 10),
        await sprungNotice('trap-m', 20),
        await resetNotice('trap-m', 30, 10),
        await sprungNotice('trap-m', 40),
        await sprungNotice('trap-n', 11),
        await resetNotice('trap-n', 21, 10),
        await resetNotice('trap-o', 12, 11),
        await sprungNotice('trap-p', 13),
      ].sort(),
    );
    await until(() => receiver.received.length >= written.length);
  });

  it("carries in each notification the sensor as its own record left it: sprung_at that record's episode, or null once set", async () => {
    await alerts.createWebhookAlert(admin, receiver, owner.username, 'sprung,reset');
    await springBefore();

    await submitTheBatch();

    const written = await testApp.dataSource.getRepository(AlertNotificationEntity).find({ order: { id: 'ASC' } });
    const sensorOf = (devId: string, event: string, nid: number) =>
      JSON.parse(written.find((row) => row.devId === devId && row.event === event && row.recordNid === nid)!.sensor!) as {
        sprung: boolean;
        sprung_at: string | null;
      };
    const zone = testApp.app.get<AppConfig>(APP_CONFIG).siteTimezone;
    const sprungSince = (minutes: number) => ({ sprung: true, sprung_at: formatSiteDate(deviceInstant(minutes), zone) });
    const setAgain = { sprung: false, sprung_at: null };
    const seen = async (devId: string, event: string, minutes: number) => {
      const { sprung, sprung_at } = sensorOf(devId, event, await nidOf(devId, minutes));
      return { sprung, sprung_at };
    };
    expect([
      await seen('trap-m', 'reset', 10),
      await seen('trap-m', 'sprung', 20),
      await seen('trap-m', 'reset', 30),
      await seen('trap-m', 'sprung', 40),
      await seen('trap-n', 'sprung', 11),
      await seen('trap-n', 'reset', 21),
      await seen('trap-o', 'reset', 12),
      await seen('trap-p', 'sprung', 13),
    ]).toEqual([setAgain, sprungSince(20), setAgain, sprungSince(40), sprungSince(11), setAgain, setAgain, sprungSince(13)]);
    await until(() => receiver.received.length >= written.length);
  });

  it.each([
    ['no alert wants their ids', false, ['UPDATE', 'UPDATE', 'INSERT']],
    ['an alert wants their ids', true, ['SELECT', 'SELECT', 'UPDATE', 'UPDATE', 'INSERT', 'SELECT']],
  ])(
    'sends them, when %s, as one UPDATE per first Set and one INSERT, with the reads the ids need: one round trip on MySQL',
    async (_, withAlert, kinds) => {
      if (withAlert) await alerts.createWebhookAlert(admin, receiver, owner.username, 'sprung,reset');
      await springBefore();

      const sent = (await statementsDuring(testApp, submitTheBatch)).filter((sql) => /sprung_episodes/.test(sql));

      // The sensors' json in the notifications reads no episode: the batch's transitions tell each one.
      expect(sent.flatMap((sql) => sql.split(/;\n/)).map(statementKind)).toEqual(kinds);
      expect(sent).toHaveLength(testEngine === 'mysql' ? 1 : kinds.length);
      if (withAlert) await until(() => receiver.received.length >= 10);
    },
  );
});
