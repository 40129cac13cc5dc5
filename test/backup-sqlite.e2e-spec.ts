import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runAdminCli } from '../src/cli/admin-cli.js';
import { ingestCaller } from './utils/auth-fixtures.js';
import { describeOn } from './utils/engine.js';
import { report } from './utils/read-side.js';
import { servedState } from './utils/served-state.js';
import { createTestApp, type TestApp } from './utils/test-app.js';

/**
 * `backup --to FILE` on SQLite (docs/operations.md#backup-and-restore): taken while the service runs
 * and goes on storing records, the copy is a database the service starts on and serves the same
 * records, sensors and tokens from.
 */
describeOn('sqlite', 'backup --to FILE (SQLite)', () => {
  let directory: string;
  const savedUrl = process.env.DATABASE_URL;
  const apps: TestApp[] = [];

  const startOn = async (file: string) => {
    process.env.DATABASE_URL = `sqlite:${file}`;
    const started = await createTestApp();
    apps.push(started);
    return started;
  };
  const backup = async (args: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runAdminCli(['backup', ...args], process.env, {
      stdout: (line) => out.push(line),
      stderr: (line) => err.push(line),
    });
    return { code, out, err };
  };

  beforeAll(() => {
    directory = mkdtempSync(join(tmpdir(), 'sensor-records-backup-'));
  });

  afterAll(async () => {
    for (const started of apps) await started.close();
    process.env.DATABASE_URL = savedUrl;
    rmSync(directory, { recursive: true, force: true });
  });

  it('copies the database as it stands; the copy serves the same records, sensors and tokens', async () => {
    const service = await startOn(join(directory, 'live.sqlite'));
    const owner = await ingestCaller(service.app);
    const nids: number[] = [];
    for (const devId of ['trap-1', 'trap-2', 'trap-1']) nids.push(await report(service.app, owner.accessToken, { dev_id: devId }));
    const target = join(directory, 'copy.sqlite');

    const { code, out } = await backup(['--to', target]);

    expect(code).toBe(0);
    expect(JSON.parse(out[0]!)).toEqual({ to: target, bytes: expect.any(Number), pages: expect.any(Number) });
    const restored = await startOn(target);
    // The owner's token, issued before the backup, is accepted by the service started on the copy.
    expect(await servedState(restored.app, owner.accessToken, nids)).toEqual(await servedState(service.app, owner.accessToken, nids));
  });

  it('copies one moment of a database that is being written: every record whole, the sensors counting exactly the records copied', async () => {
    const service = await startOn(join(directory, 'busy.sqlite'));
    const owner = await ingestCaller(service.app);
    const target = join(directory, 'busy-copy.sqlite');
    let writing = true;
    const writer = (async () => {
      let stored = 0;
      while (writing || stored < 20) {
        await report(service.app, owner.accessToken, { dev_id: `trap-${stored % 4}` });
        stored += 1;
      }
      return stored;
    })();

    const { code } = await backup(['--to', target]);
    writing = false;
    const stored = await writer;

    expect(code).toBe(0);
    const restored = await startOn(target);
    const [integrity] = (await restored.dataSource.query('PRAGMA integrity_check')) as Array<{ integrity_check: string }>;
    const [counts] = (await restored.dataSource.query(
      'SELECT (SELECT COUNT(*) FROM sensor_report) AS records, (SELECT COALESCE(SUM(report_count), 0) FROM sensor) AS counted',
    )) as Array<{ records: number; counted: number }>;
    expect(integrity?.integrity_check).toBe('ok');
    expect(counts!.counted).toBe(counts!.records);
    expect(counts!.records).toBeLessThanOrEqual(stored);
    const copied = ((await restored.dataSource.query('SELECT nid FROM sensor_report')) as Array<{ nid: number }>).map((row) => row.nid);
    expect(await servedState(restored.app, owner.accessToken, copied.slice(0, 5))).toMatchObject(
      Object.fromEntries(
        Object.entries(await servedState(service.app, owner.accessToken, copied.slice(0, 5))).filter(([key]) => key.startsWith('/node/')),
      ),
    );
  });

  it('refuses a file that exists, and a database in memory', async () => {
    const existing = join(directory, 'copy.sqlite');
    process.env.DATABASE_URL = `sqlite:${join(directory, 'live.sqlite')}`;
    expect((await backup(['--to', existing])).err).toEqual([`${existing} exists already: name a new file.`]);
    process.env.DATABASE_URL = 'sqlite::memory:';
    expect((await backup(['--to', join(directory, 'new.sqlite')])).err).toEqual([
      'The database is in memory (sqlite::memory:): there is nothing to back up.',
    ]);
    expect((await backup([])).err).toEqual(['Missing required option --to.']);
  });
});
