import type { DataSource } from 'typeorm';
import { alertsAdmin, createWebhookAlert } from './utils/alerts.js';
import { ingestCaller } from './utils/auth-fixtures.js';
import { reportBody } from './utils/read-side.js';
import { submit } from './utils/sensor-record-api.js';
import { createTestApp, type TestApp } from './utils/test-app.js';
import { until } from './utils/until.js';
import { WebhookReceiver } from './utils/webhook-receiver.js';

const TRAPS = ['trap-a', 'trap-b', 'trap-c'];

/**
 * Sends are pipelined (docs/alerts.md#delivery): a receiver that holds every request until the send's
 * timeout delays its own notifications only; another receiver's arrive meanwhile, in order per sensor.
 */
describe('Alerts with a receiver that never answers', () => {
  const hanging = new WebhookReceiver();
  const healthy = new WebhookReceiver();
  let testApp: TestApp;

  const notifications = (dataSource: DataSource, alertId: number) =>
    dataSource.query('SELECT event, dev_id, status, attempts FROM alert_notifications WHERE alert_id = ? ORDER BY id', [
      alertId,
    ]) as Promise<Array<{ event: string; dev_id: string; status: string; attempts: number }>>;

  beforeAll(async () => {
    await hanging.start();
    await healthy.start();
    hanging.holds = true;
    testApp = await createTestApp();
    await testApp.reset();
  });

  afterAll(async () => {
    // The held requests end first, so that the dispatcher's last sends end at once.
    await hanging.stop();
    await testApp.close();
    await healthy.stop();
  });

  it('delivers every notification of the healthy receiver, sprung before reset per trap, while the hanging one still holds its first requests', async () => {
    const owner = await ingestCaller(testApp.app);
    const admin = alertsAdmin(testApp);
    const toHanging = await createWebhookAlert(admin, hanging, owner.username, 'sprung,reset');
    await createWebhookAlert(admin, healthy, owner.username, 'sprung,reset');

    const start = Date.now() - 600_000;
    for (const [index, devId] of TRAPS.entries()) {
      const time = new Date(start + index * 1000).toISOString();
      const body = reportBody({ dev_id: devId, time, event: 'Sprung', status: 'Sprung', timeout: 3600 });
      await submit(testApp.app, body, { token: owner.accessToken, format: 'json' }).expect(201);
    }
    for (const [index, devId] of TRAPS.entries()) {
      const time = new Date(start + 60_000 + index * 1000).toISOString();
      const body = reportBody({ dev_id: devId, time, event: 'Set', status: 'Set', timeout: 3600 });
      await submit(testApp.app, body, { token: owner.accessToken, format: 'json' }).expect(201);
    }
    await until(() => healthy.received.length >= 2 * TRAPS.length);

    // Each sprung to the hanging receiver went out (it holds them), and none has ended: no timeout has
    // run out, so nothing the healthy receiver got waited for one.
    expect(hanging.held.map((request) => ({ event: JSON.parse(request.body).event, open: request.open }))).toEqual(
      TRAPS.map(() => ({ event: 'sprung', open: true })),
    );
    expect(healthy.received.every((hook) => hook.signed)).toBe(true);
    for (const devId of TRAPS)
      expect(healthy.events().filter((event) => event.endsWith(devId))).toEqual([`sprung ${devId}`, `reset ${devId}`]);
    expect((await notifications(testApp.dataSource, toHanging)).filter((notification) => notification.status !== 'pending')).toEqual([]);
  });
});
