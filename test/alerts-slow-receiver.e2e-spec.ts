import type { DataSource } from 'typeorm';
import { AlertsAdmin } from '../src/alerts/admin/alerts-admin.service.js';
import { PasswordHasher } from '../src/auth/users/password-hasher.js';
import { UserEntity } from '../src/auth/users/user.entity.js';
import { UsersService } from '../src/auth/users/users.service.js';
import { runCommand } from '../src/cli/commands.js';
import { systemClock } from '../src/common/time/clock.js';
import { APP_CONFIG, type AppConfig } from '../src/config/app-config.js';
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
  let admin: AlertsAdmin;

  const notifications = (dataSource: DataSource) =>
    dataSource.query('SELECT event, status, attempts FROM alert_notifications ORDER BY id') as Promise<
      Array<{ event: string; status: string; attempts: number }>
    >;

  beforeAll(async () => {
    await receiver.start();
    testApp = await createTestApp();
    await testApp.reset();
    const users = new UsersService(testApp.dataSource.getRepository(UserEntity), new PasswordHasher());
    admin = new AlertsAdmin(testApp.dataSource, users, systemClock, testApp.app.get<AppConfig>(APP_CONFIG));
  });

  afterAll(async () => {
    await testApp.close();
    await receiver.stop();
  });

  it('marks the notification of a sprung trap delivered after one send, though the receiver took longer than the request may wait', async () => {
    const owner = await ingestCaller(testApp.app);
    const created = await runCommand(['alert:create', '--user', owner.username, '--on', 'sprung', '--webhook', receiver.url()], {
      users: undefined as never,
      clients: undefined as never,
      alerts: admin,
    });
    receiver.secret = String(created.secret);
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
