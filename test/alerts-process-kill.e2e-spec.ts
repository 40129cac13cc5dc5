import { join } from 'node:path';
import { AlertDispatcher } from '../src/alerts/delivery/alert-dispatcher.service.js';
import { alertsAdmin } from './utils/alerts.js';
import { ingestCaller } from './utils/auth-fixtures.js';
import { assertBuilt, childEnvironment, scratchDirectory, ServiceProcess } from './utils/built-process.js';
import { reportBody } from './utils/read-side.js';
import { SENSOR_RECORD_URL } from './utils/sensor-record-api.js';
import { createTestApp, type TestApp } from './utils/test-app.js';
import { until } from './utils/until.js';
import { WebhookReceiver } from './utils/webhook-receiver.js';

type Row = { id: number; status: string; attempts: number; claimed_by: string | null };

/**
 * The built service as a real process, killed with SIGKILL after it answered 201 for a sprung trap and
 * before the notification could be delivered (its receiver down): started again, it delivers the
 * notification, once (docs/alerts.md#delivery). The notification is a row written in the record's own
 * transaction, so nothing of it lived only in the killed process' memory.
 */
describe('Alerts when the service is killed after the 201', () => {
  const workdir = scratchDirectory('sensor-records-alert-kill-');
  const databaseUrl = process.env.DATABASE_URL?.startsWith('mysql://')
    ? process.env.DATABASE_URL
    : `sqlite:${join(workdir.path, 'records.sqlite')}`;
  const saved = { ...process.env };
  const receiver = new WebhookReceiver();
  /** Sets up the user, the token and the alert, and reads the tables; it sends nothing itself. */
  let helper: TestApp;
  let service: ServiceProcess | undefined;

  const start = async () => {
    service = new ServiceProcess({
      cwd: workdir.path,
      env: childEnvironment({ PORT: '0', DATABASE_URL: databaseUrl, BASE_URL: 'http://sensors.test', LOG_LEVEL: 'info' }),
    });
    return service.serving();
  };
  const notifications = () =>
    helper.dataSource.query('SELECT id, status, attempts, claimed_by FROM alert_notifications ORDER BY id') as Promise<Row[]>;

  beforeAll(async () => {
    assertBuilt();
    process.env.DATABASE_URL = databaseUrl;
    // Tokens issued here must name the issuer the service expects.
    process.env.BASE_URL = 'http://sensors.test';
    helper = await createTestApp({ override: (builder) => builder.overrideProvider(AlertDispatcher).useValue({}) });
    await helper.reset();
  });

  afterEach(async () => {
    await service?.stop();
    service = undefined;
  });

  afterAll(async () => {
    await helper?.close();
    await receiver.stop();
    process.env = { ...saved };
    workdir.remove();
  });

  it('delivers the notification of a sprung trap once when started again', async () => {
    await receiver.start();
    const hook = receiver.url();
    // Down: each send is refused until the receiver is back.
    await receiver.stop();
    const owner = await ingestCaller(helper.app);
    const created = await alertsAdmin(helper).create({
      username: owner.username,
      events: ['sprung'],
      channel: 'webhook',
      target: hook,
      format: 'json',
    });
    receiver.secret = created.secret!;

    const port = await start();
    const body = reportBody({ dev_id: 'trap-kill', time: new Date(Date.now() - 60_000).toISOString(), event: 'Sprung', status: 'Sprung' });
    const answer = await fetch(`http://127.0.0.1:${port}${SENSOR_RECORD_URL}?_format=json`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${owner.accessToken}`, 'Content-Type': 'application/hal+json' },
      body: JSON.stringify(body),
    });
    expect(answer.status).toBe(201);
    // Tried, refused, and given back to wait for its next try (at least half a second away): killed now,
    // the process dies between two tries, holding no claim.
    await until(async () => (await notifications()).some((row) => row.attempts > 0 && row.claimed_by === null));
    const killed = await service!.stop('SIGKILL');
    expect(killed.signal).toBe('SIGKILL');
    expect(await notifications()).toEqual([expect.objectContaining({ status: 'pending' })]);
    expect(receiver.received).toEqual([]);

    await receiver.start();
    await start();
    await until(async () => (await notifications()).every((row) => row.status === 'delivered'));
    // Stopped, the service sends nothing more: what arrived is all there will be.
    await service!.stop('SIGTERM');

    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]).toMatchObject({
      signed: true,
      json: { event: 'sprung', sensor: expect.objectContaining({ dev_id: 'trap-kill', sprung: true }) },
    });
    const [row] = await notifications();
    expect(receiver.received[0]!.headers['idempotency-key']).toBe(String(row!.id));
  });
});
