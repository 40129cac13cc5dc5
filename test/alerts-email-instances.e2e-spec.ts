import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AlertsAdmin } from '../src/alerts/admin/alerts-admin.service.js';
import { PasswordHasher } from '../src/auth/users/password-hasher.js';
import { UserEntity } from '../src/auth/users/user.entity.js';
import { UsersService } from '../src/auth/users/users.service.js';
import { APP_CONFIG, type AppConfig } from '../src/config/app-config.js';
import { ingestCaller } from './utils/auth-fixtures.js';
import { FakeClock } from './utils/fake-clock.js';
import { reportBody } from './utils/read-side.js';
import { submit } from './utils/sensor-record-api.js';
import { SmtpReceiver } from './utils/smtp-receiver.js';
import { createTestApp, type TestApp } from './utils/test-app.js';
import { until } from './utils/until.js';

/**
 * Two instances on one database (MariaDB in `npm run test:mysql`, a SQLite file otherwise), each with
 * its email dispatcher and one clock: the notifications to one address, whichever instance stored
 * their records, go as one message, sent by one of them (docs/alerts.md#email).
 */
describe('Email alerts on two instances sharing one database', () => {
  const saved = { ...process.env };
  const clock = new FakeClock();
  const smtp = new SmtpReceiver();
  let sqliteDirectory: string | undefined;
  let instances: TestApp[];

  beforeAll(async () => {
    if (!process.env.DATABASE_URL?.startsWith('mysql://')) {
      sqliteDirectory = mkdtempSync(join(tmpdir(), 'sensor-records-email-'));
      process.env.DATABASE_URL = `sqlite:${join(sqliteDirectory, 'shared.sqlite')}`;
    }
    await smtp.start();
    process.env.SMTP_URL = smtp.url();
    process.env.ALERT_EMAIL_FROM = 'alerts@traps.example.org';
    instances = [await createTestApp({ override: clock.install }), await createTestApp({ override: clock.install })];
    await instances[0]!.reset();
  });

  afterAll(async () => {
    for (const instance of instances) await instance.close();
    await smtp.stop();
    process.env = { ...saved };
    if (sqliteDirectory) rmSync(sqliteDirectory, { recursive: true, force: true });
  });

  it('sends the notifications of records stored by both instances within the window as one email, each once', async () => {
    const [first, second] = instances as [TestApp, TestApp];
    const owner = await ingestCaller(first.app);
    const users = new UsersService(first.dataSource.getRepository(UserEntity), new PasswordHasher());
    const admin = new AlertsAdmin(first.dataSource, users, clock, first.app.get<AppConfig>(APP_CONFIG));
    await admin.create({ username: owner.username, events: ['sprung'], channel: 'email', target: 'trapper@example.org', format: 'json' });
    const devIds = Array.from({ length: 40 }, (_, index) => `trap-${String(index).padStart(2, '0')}`);

    await Promise.all(
      devIds.map((devId, index) =>
        submit(
          (index % 2 ? second : first).app,
          reportBody({ dev_id: devId, time: new Date(clock.now() - 3600_000).toISOString(), event: 'Sprung', status: 'Sprung' }),
          { token: owner.accessToken, format: 'json' },
        ).expect(201),
      ),
    );
    clock.advance(60_000);
    const rows = () =>
      first.dataSource.query('SELECT status, attempts FROM alert_notifications') as Promise<Array<{ status: string; attempts: number }>>;
    await until(async () => (await rows()).every((row) => row.status === 'delivered'));

    expect(smtp.received).toHaveLength(1);
    const listed = smtp.received[0]!.mail.text!.split('\n').filter((line) => line.startsWith('Trap '));
    expect(listed.map((line) => line.split(' ')[1]).sort()).toEqual(devIds);
    expect(await rows()).toHaveLength(40);
    expect((await rows()).every((row) => Number(row.attempts) === 1)).toBe(true);
  });
});
