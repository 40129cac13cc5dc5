import { jest } from '@jest/globals';
import { NotificationSender } from '../src/alerts/delivery/notification-sender.js';
import { ingestCaller } from './utils/auth-fixtures.js';
import {
  alertsAdmin,
  allReceived,
  batteryLowAfterFirstReportsAtOnce,
  createWebhookAlert,
  expectEachOnceInOrder,
  sprungOrSet,
} from './utils/alerts.js';
import { closeInstances, rowsOnEachNode, startInstances, type ClusterInstance } from './utils/galera.js';
import { submit } from './utils/sensor-record-api.js';
import { WebhookReceiver } from './utils/webhook-receiver.js';

const SENSORS = 15;
/** Sprung, Set, Sprung, … for each sensor: a `sprung` or `reset` notification each. */
const STEPS = 6;

/**
 * Three instances, each on its own node of a three-node Galera cluster (`npm run test:galera`), each
 * with its dispatcher claiming from the one outbox: the claims of two nodes meet only at COMMIT, and a
 * notification written on one node is claimed on another (docs/alerts.md#delivery).
 */
describe('Alerts on a Galera cluster, one instance per node', () => {
  const receiver = new WebhookReceiver();
  let instances: ClusterInstance[];

  beforeAll(async () => {
    await receiver.start();
    instances = await startInstances();
    await instances[0]!.app.reset();
  }, 120_000);

  afterAll(async () => {
    await closeInstances(instances);
    await receiver.stop();
  });

  it('delivers each notification once, signed, in order per sensor, and every node shows it delivered', async () => {
    const first = instances[0]!.app;
    const owner = await ingestCaller(first.app);
    await createWebhookAlert(alertsAdmin(first), receiver, owner.username, 'sprung,reset');
    const sends = instances.map((instance) => jest.spyOn(instance.app.app.get(NotificationSender), 'send'));
    const devIds = Array.from({ length: SENSORS }, (_, index) => `cluster-alert-${index + 1}`);
    const start = Date.now() - 3600_000;

    // Each step's reports of all sensors at once, each sensor's report to the next instance after the one before.
    for (let step = 0; step < STEPS; step++) {
      const answers = await Promise.all(
        devIds.map((devId, index) =>
          submit(instances[(step + index) % 3]!.app.app, sprungOrSet(devId, step, start), { token: owner.accessToken, format: 'json' }),
        ),
      );
      expect(answers.map((answer) => answer.status)).toEqual(Array(SENSORS).fill(201));
    }
    const sent = SENSORS * STEPS;
    await allReceived(receiver, sent);

    expectEachOnceInOrder(receiver, devIds, STEPS);
    // One send each, by whichever instance claimed it: the instances did share the work.
    expect(sends.reduce((sum, send) => sum + send.mock.calls.length, 0)).toBe(sent);
    expect(sends.filter((send) => send.mock.calls.length > 0).length).toBeGreaterThanOrEqual(2);
    const ids = receiver.received.map((hook) => Number(hook.json!.notification_id));
    const delivered = [...ids].sort((a, b) => a - b).map((id) => ({ id, status: 'delivered' }));
    for (const rows of await rowsOnEachNode<{ id: number; status: string }>('SELECT id, status FROM alert_notifications ORDER BY id')) {
      expect(rows.map((row) => ({ id: Number(row.id), status: row.status }))).toEqual(delivered);
    }
  });

  it('leaves a new sensor armed for battery_low whichever of its first two reports, sent at once to two nodes, commits first', async () => {
    const first = instances[0]!.app;
    const owner = await ingestCaller(first.app);
    await createWebhookAlert(alertsAdmin(first), receiver, owner.username, 'battery_low', '--battery-below', '3.3');
    const devIds = Array.from({ length: SENSORS }, (_, index) => `cluster-cell-${index + 1}`);

    // The two reports of a sensor certify against each other: the one that loses runs again, and reads the other's voltage.
    const apps = instances.map((instance) => instance.app);
    expect(await batteryLowAfterFirstReportsAtOnce(apps, owner.accessToken, devIds)).toEqual(devIds.sort());
  });
});
