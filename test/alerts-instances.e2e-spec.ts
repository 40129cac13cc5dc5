import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AlertsAdmin } from '../src/alerts/admin/alerts-admin.service.js';
import { PasswordHasher } from '../src/auth/users/password-hasher.js';
import { UserEntity } from '../src/auth/users/user.entity.js';
import { UsersService } from '../src/auth/users/users.service.js';
import { systemClock } from '../src/common/time/clock.js';
import { APP_CONFIG, type AppConfig } from '../src/config/app-config.js';
import { ingestCaller } from './utils/auth-fixtures.js';
import { reportBody } from './utils/read-side.js';
import { submit } from './utils/sensor-record-api.js';
import { createTestApp, type TestApp } from './utils/test-app.js';
import { until } from './utils/until.js';
import { WebhookReceiver } from './utils/webhook-receiver.js';

/**
 * Two instances on one database (MariaDB in `npm run test:mysql`, a SQLite file otherwise), each with
 * its dispatcher: records submitted to both, every notification delivered exactly once when nothing
 * crashes, in order per sensor (docs/alerts.md#delivery).
 */
describe('Alerts on two instances sharing one database', () => {
  const saved = { ...process.env };
  const receiver = new WebhookReceiver();
  let sqliteDirectory: string | undefined;
  let instances: TestApp[];

  beforeAll(async () => {
    if (!process.env.DATABASE_URL?.startsWith('mysql://')) {
      sqliteDirectory = mkdtempSync(join(tmpdir(), 'sensor-records-alerts-'));
      process.env.DATABASE_URL = `sqlite:${join(sqliteDirectory, 'shared.sqlite')}`;
    }
    await receiver.start();
    instances = [await createTestApp(), await createTestApp()];
    await instances[0]!.reset();
  });

  afterAll(async () => {
    for (const instance of instances) await instance.close();
    await receiver.stop();
    process.env = { ...saved };
    if (sqliteDirectory) rmSync(sqliteDirectory, { recursive: true, force: true });
  });

  it('delivers each notification once, whichever instance stored its record, in order per sensor', async () => {
    const first = instances[0]!;
    const owner = await ingestCaller(first.app);
    const users = new UsersService(first.dataSource.getRepository(UserEntity), new PasswordHasher());
    const admin = new AlertsAdmin(first.dataSource, users, systemClock, first.app.get<AppConfig>(APP_CONFIG));
    receiver.secret = (
      await admin.create({
        username: owner.username,
        events: ['sprung', 'reset'],
        channel: 'webhook',
        target: receiver.url(),
        format: 'json',
      })
    ).secret!;
    const devIds = ['trap-1', 'trap-2', 'trap-3', 'trap-4'];
    const start = Date.now() - 3600_000;

    // Five Sprung/Set pairs per sensor, each report to the other instance than the one before.
    let sent = 0;
    for (let step = 0; step < 10; step++) {
      await Promise.all(
        devIds.map((devId, index) => {
          const event = step % 2 === 0 ? 'Sprung' : 'Set';
          const body = reportBody({ dev_id: devId, event, status: event, time: new Date(start + step * 60_000).toISOString() });
          return submit(instances[(step + index) % 2]!.app, body, { token: owner.accessToken, format: 'json' }).expect(201);
        }),
      );
      sent += devIds.length;
    }
    await until(() => receiver.received.length >= sent);
    // A while longer: a second delivery of any would show by now.
    await new Promise((resolve) => setTimeout(resolve, 2000));

    const ids = receiver.received.map((hook) => hook.json!.notification_id);
    expect(ids).toHaveLength(sent);
    expect(new Set(ids).size).toBe(sent);
    expect(receiver.received.every((hook) => hook.signed)).toBe(true);
    for (const devId of devIds) {
      expect(receiver.events().filter((event) => event.endsWith(` ${devId}`))).toEqual(
        Array.from({ length: 10 }, (_, step) => `${step % 2 === 0 ? 'sprung' : 'reset'} ${devId}`),
      );
    }
  });
});
