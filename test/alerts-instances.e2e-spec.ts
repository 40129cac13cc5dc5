import { ingestCaller } from './utils/auth-fixtures.js';
import {
  alertsAdmin,
  allReceived,
  batteryLowAfterFirstReportsAtOnce,
  createWebhookAlert,
  expectEachOnceInOrder,
  shareOneDatabase,
  sprungOrSet,
} from './utils/alerts.js';
import { submit } from './utils/sensor-record-api.js';
import { createTestApp, type TestApp } from './utils/test-app.js';
import { WebhookReceiver } from './utils/webhook-receiver.js';

const STEPS = 10;

/**
 * Two instances on one database (MariaDB in `npm run test:mysql`, a SQLite file otherwise), each with
 * its dispatcher: records submitted to both, every notification delivered exactly once when nothing
 * crashes, in order per sensor (docs/alerts.md#delivery).
 */
describe('Alerts on two instances sharing one database', () => {
  const receiver = new WebhookReceiver();
  let restore: () => void;
  let instances: TestApp[];

  beforeAll(async () => {
    restore = shareOneDatabase();
    await receiver.start();
    instances = [await createTestApp(), await createTestApp()];
    await instances[0]!.reset();
  });

  afterAll(async () => {
    for (const instance of instances) await instance.close();
    await receiver.stop();
    restore();
  });

  it('delivers each notification once, whichever instance stored its record, in order per sensor', async () => {
    const owner = await ingestCaller(instances[0]!.app);
    await createWebhookAlert(alertsAdmin(instances[0]!), receiver, owner.username, 'sprung,reset');
    const devIds = ['trap-1', 'trap-2', 'trap-3', 'trap-4'];
    const start = Date.now() - 3600_000;

    // Five Sprung/Set pairs per sensor, each report to the other instance than the one before.
    for (let step = 0; step < STEPS; step++) {
      await Promise.all(
        devIds.map((devId, index) =>
          submit(instances[(step + index) % 2]!.app, sprungOrSet(devId, step, start), { token: owner.accessToken, format: 'json' }).expect(
            201,
          ),
        ),
      );
    }
    await allReceived(receiver, devIds.length * STEPS);

    expectEachOnceInOrder(receiver, devIds, STEPS);
  });

  it('leaves a new sensor armed for battery_low whichever of its first two reports, sent at once to the two instances, commits first', async () => {
    const owner = await ingestCaller(instances[0]!.app);
    await createWebhookAlert(alertsAdmin(instances[0]!), receiver, owner.username, 'battery_low', '--battery-below', '3.3');
    const devIds = Array.from({ length: 8 }, (_, index) => `cell-${index + 1}`);

    expect(await batteryLowAfterFirstReportsAtOnce(instances, owner.accessToken, devIds)).toEqual(devIds);
  });
});
