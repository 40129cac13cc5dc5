import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { childEnvironment, PROJECT_ROOT, run, ServiceProcess } from './utils/built-process.js';
import { type BuiltService, buildService } from './utils/built-service.js';

/** The `sh` block of a document that holds `marker`, as a reader pastes it. */
function shellBlock(document: string, marker: string): string {
  const text = readFileSync(join(PROJECT_ROOT, document), 'utf8');
  const block = [...text.matchAll(/\n```sh\n([\s\S]*?)\n```\n/g)].find(([, body]) => body!.includes(marker));
  if (!block) throw new Error(`${document} has no sh block holding "${marker}"`);
  return block[1]!;
}

const firstSessionScript = () => shellBlock('README.md', 'client:create --label');
const feedLoopScript = () => shellBlock('docs/read-side.md', 'records.ndjson');

/**
 * The README's indented block under "## Alerts": its `alert:create` lines, each joined across its `\\`,
 * and the settings its comments say to put in .env (`#   NAME=value`).
 */
function alertsBlock(): { commands: string[]; settings: string[] } {
  const text = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8');
  const start = text.indexOf('\n## Alerts\n');
  const lines = text
    .slice(start, text.indexOf('\n## ', start + 1))
    .split('\n')
    .filter((line) => line.startsWith('    '))
    .join('\n')
    .replace(/\\\n\s*/g, '')
    .split('\n')
    .map((line) => line.trim());
  const commands = lines.filter((line) => line.includes('alert:create'));
  if (commands.length === 0) throw new Error('README.md has no alert:create line under "## Alerts"');
  const settings = lines.filter((line) => /^#\s+[A-Z_]+=/.test(line)).map((line) => line.replace(/^#\s+/, ''));
  return { commands, settings };
}

/** A port nothing listens on now: the script reads the service's PORT from .env, as a reader's does. */
const freePort = () =>
  new Promise<number>((done) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });

/**
 * The service started from a directory with a .env, then the README's script pasted whole into bash
 * in that directory: every step answers as the README's comments show, with no value copied by hand.
 */
describe("README's first session", () => {
  let built: BuiltService;
  let service: ServiceProcess | undefined;

  beforeAll(async () => {
    built = await buildService();
  });

  afterAll(async () => {
    await service?.stop();
    built?.remove();
  });

  it('runs as pasted against the started service: client, user, tokens, a record, a refresh, the sensor, blocking', async () => {
    const port = await freePort();
    writeFileSync(join(built.directory, '.env'), `PORT=${port}\nDATABASE_URL=sqlite:./records.sqlite\n`);
    service = new ServiceProcess({ cwd: built.directory, env: childEnvironment({ LOG_LEVEL: 'info' }) });
    expect(await service.serving()).toBe(port);

    const session = await run('bash', ['-c', firstSessionScript()], { cwd: built.directory, env: childEnvironment() });

    expect(session.stderr).toBe('');
    expect(session.code).toBe(0);
    const [client, user, tokens, record, refreshed, sensors, blocked, unblocked, ...rest] = session.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(rest).toEqual([]);
    expect(client).toEqual({ client_id: expect.any(String), client_secret: expect.any(String) });
    expect(user).toMatchObject({ uid: 1 });
    expect(tokens).toMatchObject({ token_type: 'Bearer', expires_in: 300 });
    expect(record).toMatchObject({ nid: [{ value: 1 }], field_sensor_id: [{ value: '0004A30B001C1234' }] });
    expect(refreshed).toMatchObject({ token_type: 'Bearer' });
    expect(refreshed!.refresh_token).not.toBe(tokens!.refresh_token);
    expect(sensors).toMatchObject({ sensors: [{ dev_id: '0004A30B001C1234', report_count: 1 }], next: null });
    expect([blocked, unblocked]).toEqual([
      { uid: 1, status: 'blocked' },
      { uid: 1, status: 'active', failed_logins_forgotten: 0 },
    ]);

    // The Alerts section's lines pasted after the session, its email settings in .env as it says, with
    // `npm run cli` as the project has it.
    const { commands: alerts, settings } = alertsBlock();
    appendFileSync(join(built.directory, '.env'), `${settings.join('\n')}\n`);
    writeFileSync(join(built.directory, 'package.json'), '{"type":"module","scripts":{"cli":"node dist/cli.js"}}');
    const created = await run('bash', ['-c', `set -e\n${alerts.join('\n')}`], { cwd: built.directory, env: childEnvironment() });
    expect(created).toMatchObject({ code: 0, stderr: '' });
    const answers = created.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(answers.map((answer) => answer.alert_id)).toEqual(alerts.map((_, index) => index + 1));
  }, 120_000);

  it("then docs/read-side.md's feed loop copies the record and keeps where to go on", async () => {
    await service?.stop();
    const port = await freePort();
    // The feed serves records DB_REQUEST_TIMEOUT_MS + 2 s old: 2.5 s here.
    writeFileSync(join(built.directory, '.env'), `PORT=${port}\nDATABASE_URL=sqlite:./feed.sqlite\nDB_REQUEST_TIMEOUT_MS=500\n`);
    service = new ServiceProcess({ cwd: built.directory, env: childEnvironment({ LOG_LEVEL: 'info' }) });
    expect(await service.serving()).toBe(port);

    const script = `{\n${firstSessionScript()}\n} > /dev/null\nsleep 3\n${feedLoopScript()}`;
    const loop = await run('bash', ['-c', script], { cwd: built.directory, env: childEnvironment() });

    expect(loop).toMatchObject({ code: 0, stderr: '' });
    const copied = readFileSync(join(built.directory, 'records.ndjson'), 'utf8').trimEnd().split('\n');
    expect(copied.map((line) => JSON.parse(line) as Record<string, unknown>)).toEqual([
      expect.objectContaining({ nid: [{ value: 1 }], field_sensor_id: [{ value: '0004A30B001C1234' }] }),
    ]);
    expect(readFileSync(join(built.directory, 'next-url.txt'), 'utf8')).toMatch(
      new RegExp(`^http://localhost:${port}/api-sensor/sensor-records\\?changed_since=[^&]+(&changed_since_nid=\\d+)?&_format=json\\n$`),
    );
  }, 120_000);
});
