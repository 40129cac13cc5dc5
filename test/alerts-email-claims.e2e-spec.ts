import { AlertNotificationEntity } from '../src/alerts/alert-notification.entity.js';
import { AlertEntity } from '../src/alerts/alert.entity.js';
import { EmailClaims } from '../src/alerts/delivery/email/email-claims.js';
import { ingestCaller } from './utils/auth-fixtures.js';
import { createTestApp, type TestApp } from './utils/test-app.js';

const ADDRESS = 'trapper@example.org';

/**
 * The email claims of two instances on one database (docs/alerts.md#email): an address's pending
 * notifications are claimed whole or not at all, so that one group never goes as two messages. The
 * two instances' steps are taken here one after the other, in the order a race would put them.
 */
describe(EmailClaims.name, () => {
  let testApp: TestApp;
  let alertId: number;
  let uid: number;
  const now = new Date(Math.floor(Date.now() / 1000) * 1000);

  const pending = async (devId: string) => {
    const inserted = await testApp.dataSource.getRepository(AlertNotificationEntity).insert({
      alertId,
      uid,
      devId,
      event: 'sprung',
      recipient: 'primary',
      occurredAt: now,
      text: `Trap ${devId} sprung`,
      sensor: 'null',
      recordNid: null,
      episodeId: null,
      dedupeKey: null,
      status: 'pending',
      attempts: 0,
      nextAttemptAt: now,
      claimedBy: null,
      claimedUntil: null,
      created: new Date(now.getTime() - 120_000),
      deliveredAt: null,
      lastError: null,
    });
    return Number(inserted.identifiers[0]!.id);
  };
  const ids = (claim: { notifications: AlertNotificationEntity[] }) => claim.notifications.map((notification) => notification.id);

  beforeAll(async () => {
    // No SMTP_URL here: no email dispatcher of the application's own claims these notifications.
    testApp = await createTestApp();
  });

  afterAll(() => testApp.close());

  beforeEach(async () => {
    await testApp.reset();
    uid = (await ingestCaller(testApp.app)).uid;
    const inserted = await testApp.dataSource.getRepository(AlertEntity).insert({
      uid,
      events: ['sprung'],
      devId: null,
      channel: 'email',
      target: ADDRESS,
      format: 'json',
      secret: null,
      batteryBelow: null,
      baitBelow: null,
      remindAfter: 43200,
      escalateAfter: null,
      escalateChannel: null,
      escalateTarget: null,
      created: now,
    });
    alertId = Number(inserted.identifiers[0]!.id);
  });

  it("claims none of an address's notifications while another instance holds some of them: no second message of the rest", async () => {
    const first = [await pending('trap-1'), await pending('trap-2'), await pending('trap-3')];
    const [instanceA, instanceB] = [new EmailClaims(testApp.dataSource), new EmailClaims(testApp.dataSource)];
    // Both found the address due; A claims first, then a notification to the address is written.
    const claimedByA = await instanceA.claim(ADDRESS, now);
    const later = await pending('trap-1');

    const claimedByB = await instanceB.claim(ADDRESS, now);

    expect(ids(claimedByA)).toEqual(first);
    expect(ids(claimedByB)).toEqual([]);
    const [row] = await testApp.dataSource.getRepository(AlertNotificationEntity).findBy({ id: later });
    expect(row).toMatchObject({ claimedBy: null, claimedUntil: null, attempts: 0 });

    // Once A's message is settled, the one written meanwhile goes in the next.
    await instanceA.settle(claimedByA.token, { delivered: first, failed: [], retry: [] }, now, null);
    expect(ids(await instanceB.claim(ADDRESS, now))).toEqual([later]);
  });
});
