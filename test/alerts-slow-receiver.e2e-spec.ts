import type { DataSource } from 'typeorm';
import { alertsAdmin, createWebhookAlert } from './utils/alerts.js';
import { ingestCaller } from './utils/auth-fixtures.js';
import { reportBody } from './utils/read-side.js';
import { submit } from './utils/sensor-record-api.js';
import { createTestApp, type TestApp } from './utils/test-app.js';
import { until } from './utils/until.js';
import { WebhookReceiver } from './utils/webhook-receiver.js';

// A request may wait 1.5 s on the database here; the receiver answers after 2.5 s, inside the send's 5 s.
process.env.DB_REQUEST_TIMEOUT_MS = '1500';
const RECEIVER_DELAY_MS = 2500;

/**
 * A send that a submission set going belongs to the dispatcher, not to the request: a receiver slower
 * than the request's database budget still has its notification marked delivered, once (docs/alerts.md#delivery).
 */
describe('Alerts with a slow receiver', () => {
  const receiver = new WebhookReceiver();
  let testApp: TestApp;

  const notifications = (dataSource: DataSource) =>
    dataSource.query('SELECT event, status, attempts FROM alert_notifications ORDER BY id') as Promise<
      Array<{ event: string; status: string; attempts: number }>
    >;

  beforeAll(async () => {
    await receiver.start();
    testApp = await createTestApp();
    await testApp.reset();
  });

  afterAll(async () => {
    await testApp.close();
    await receiver.stop();
  });

  it('marks the notification of a sprung trap delivered after one send, though the receiver took longer than the request may wait', async () => {
    const owner = await ingestCaller(testApp.app);
    await createWebhookAlert(alertsAdmin(testApp), receiver, owner.username, 'sprung');
    receiver.delayMs = RECEIVER_DELAY_MS;

    const body = reportBody({
      dev_id: 'trap-slow',
      time: new Date(Date.now() - 60_000).toISOString(),
      event: 'Sprung',
      status: 'Sprung',
      timeout: 3600,
    });
    await submit(testApp.app, body, { token: owner.accessToken, format: 'json' }).expect(201);
    await until(async () => (await notifications(testApp.dataSource)).every((notification) => notification.status !== 'pending'));

    expect(await notifications(testApp.dataSource)).toEqual([{ event: 'sprung', status: 'delivered', attempts: 1 }]);
    expect(receiver.events()).toEqual(['sprung trap-slow']);
    expect(receiver.received[0]!.signed).toBe(true);
  });
});
