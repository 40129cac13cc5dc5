import { alertsAdmin, shareOneDatabase } from './utils/alerts.js';
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
  const clock = new FakeClock();
  const smtp = new SmtpReceiver();
  let restore: () => void;
  let instances: TestApp[];

  beforeAll(async () => {
    restore = shareOneDatabase();
    await smtp.start();
    process.env.SMTP_URL = smtp.url();
    process.env.ALERT_EMAIL_FROM = 'alerts@traps.example.org';
    instances = [await createTestApp({ override: clock.install }), await createTestApp({ override: clock.install })];
    await instances[0]!.reset();
  });

  afterAll(async () => {
    for (const instance of instances) await instance.close();
    await smtp.stop();
    restore();
  });

  it('sends the notifications of records stored by both instances within the window as one email, each once', async () => {
    const [first, second] = instances as [TestApp, TestApp];
    const owner = await ingestCaller(first.app);
    await alertsAdmin(first, clock).create({
      username: owner.username,
      events: ['sprung'],
      channel: 'email',
      target: 'trapper@example.org',
      format: 'json',
    });
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
