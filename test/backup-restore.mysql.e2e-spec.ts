import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ingestCaller } from './utils/auth-fixtures.js';
import { report } from './utils/read-side.js';
import { servedFeed, servedState } from './utils/served-state.js';
import { createTestApp, type TestApp } from './utils/test-app.js';
import { until } from './utils/until.js';

/**
 * A MariaDB installation backed up and restored as docs/operations.md#backup-and-restore says: the
 * dump of a database the service runs on, restored into a new database, serves the same records,
 * sensors and tokens (the keys here are the configured pair both services are given).
 */
describe('mariadb-dump restored into a new database (MySQL)', () => {
  const savedUrl = process.env.DATABASE_URL!;
  const source = new URL(savedUrl);
  const sourceName = source.pathname.slice(1);
  const restoredName = `${sourceName}_restored`;
  const client = ['--host', source.hostname, '--port', source.port || '3306', '--user', decodeURIComponent(source.username) || 'root'];
  let directory: string;
  let service: TestApp;
  let restored: TestApp | undefined;

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'sensor-records-dump-'));
    service = await createTestApp();
  });

  afterAll(async () => {
    await restored?.close();
    await service.close();
    process.env.DATABASE_URL = savedUrl;
    execFileSync('mariadb', [...client, '--execute', `DROP DATABASE IF EXISTS \`${restoredName}\``]);
    rmSync(directory, { recursive: true, force: true });
  });

  it('serves the same records, sensors, feed and tokens from the restored database', async () => {
    await service.reset();
    const owner = await ingestCaller(service.app);
    const nids: number[] = [];
    for (const devId of ['trap-1', 'TRAP-1', 'trap-2'])
      nids.push(await report(service.app, owner.accessToken, { dev_id: devId, event: 'Sprung', status: 'Sprung' }));
    const dump = join(directory, 'dump.sql');

    // The lines of docs/operations.md#backup-and-restore.
    execFileSync('mariadb-dump', [
      ...client,
      '--single-transaction',
      '--routines',
      '--triggers',
      '--hex-blob',
      `--result-file=${dump}`,
      sourceName,
    ]);
    execFileSync('mariadb', [
      ...client,
      '--execute',
      `DROP DATABASE IF EXISTS \`${restoredName}\`; CREATE DATABASE \`${restoredName}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
    ]);
    execFileSync('bash', ['-c', `mariadb ${client.join(' ')} ${restoredName} < ${dump}`]);
    process.env.DATABASE_URL = new URL(`/${restoredName}`, savedUrl).toString();
    restored = await createTestApp();

    // Nothing was left to migrate: the dump holds the schema and its migrations table.
    const applied = (db: TestApp) => db.dataSource.query('SELECT name FROM schema_migrations ORDER BY id');
    expect(await applied(restored)).toEqual(await applied(service));
    // The owner's token, issued before the dump, is accepted by the service on the restored database.
    expect(await servedState(restored.app, owner.accessToken, nids)).toEqual(await servedState(service.app, owner.accessToken, nids));
    // Once the three records have settled, the restored database's feed serves them as the source's does.
    await until(
      async () => JSON.parse(await servedFeed(service.app, owner.accessToken)) as { records: unknown[] },
      (feed) => feed.records.length === nids.length,
    );
    expect(await servedFeed(restored.app, owner.accessToken)).toBe(await servedFeed(service.app, owner.accessToken));
    // trap-1 and TRAP-1 are two sensors there as here: the dump kept the binary collation of device ids.
    const sensors = JSON.parse((await servedState(restored.app, owner.accessToken, [])).sensors!) as { sensors: Array<{ dev_id: string }> };
    expect(sensors.sensors.map((sensor) => sensor.dev_id).sort()).toEqual(['TRAP-1', 'trap-1', 'trap-2']);
  });
});
