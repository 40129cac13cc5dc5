import { createConnection, type Connection } from 'mysql2/promise';
import type { DataSource } from 'typeorm';
import { loadConfig } from '../src/config/app-config.js';
import { buildDataSourceOptions } from '../src/database/data-source-options.js';
import { quietDatabaseLogger } from '../src/database/database-logger.js';
import { initializeDataSource } from '../src/database/initialize-data-source.js';
import { migrations } from '../src/database/migrations/index.js';
import { galeraUrls, rowsOnEachNode, untilDatabaseOnEachNode } from './utils/galera.js';

/** The test database's URLs with another database name: one no instance has migrated yet. */
function renamed(urls: string[], name: string): string[] {
  return urls.map((url) => {
    const renamedUrl = new URL(url);
    renamedUrl.pathname = `/${name}`;
    return renamedUrl.toString();
  });
}

/**
 * Instances on different nodes of a Galera cluster (`npm run test:galera`) starting together on an
 * empty database. A named lock (GET_LOCK) holds on one node only, so the instances would apply the same
 * migrations at once; the lock the service takes is a row, which the cluster certifies.
 */
describe('Migrations on a Galera cluster, instances starting together on each node', () => {
  const name = `${decodeURIComponent(new URL(galeraUrls()[0]).pathname.slice(1))}_migrations`;
  const urls = renamed(galeraUrls(), name);
  let admin: Connection;

  const start = (url: string): Promise<DataSource> =>
    initializeDataSource({
      ...buildDataSourceOptions(loadConfig({ ...process.env, DATABASE_URL: url, DB_MIGRATIONS_RUN: 'true' }).database),
      logger: quietDatabaseLogger,
    });

  beforeAll(async () => {
    const server = new URL(galeraUrls()[0]);
    server.pathname = '/';
    admin = await createConnection({ uri: server.toString() });
  });

  beforeEach(async () => {
    await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
    await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    await untilDatabaseOnEachNode(name, urls);
  });

  afterAll(async () => {
    await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
    await admin.end();
  });

  it.each([1, 2, 3])(
    'all three start and each migration is applied once, as every node records (round %i)',
    async () => {
      const started = await Promise.allSettled(urls.map(start));
      // Closed before anything is checked: a pool left open would keep the test run from ending.
      for (const result of started) if (result.status === 'fulfilled') await result.value.destroy();

      expect(started.map((result) => (result.status === 'rejected' ? String(result.reason) : 'started'))).toEqual([
        'started',
        'started',
        'started',
      ]);
      const expected = migrations.map((migration) => migration.name).sort();
      for (const applied of await rowsOnEachNode<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name', [], urls)) {
        expect(applied.map((row) => row.name)).toEqual(expected);
      }
    },
    90_000,
  );

  it('takes over the lock of an instance that died holding it, once its lease has run out', async () => {
    const first = await start(urls[0]!);
    await first.destroy();
    await admin.query(
      `INSERT INTO \`${name}\`.leases (name, holder, expires_at) VALUES ('migrations', 'a-process-that-died', UTC_TIMESTAMP() - INTERVAL 1 SECOND)`,
    );

    const started = await Promise.allSettled(urls.map(start));

    for (const result of started) if (result.status === 'fulfilled') await result.value.destroy();
    expect(started.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
    for (const rows of await rowsOnEachNode<{ holder: string }>('SELECT holder FROM leases', [], urls)) expect(rows).toEqual([]);
  }, 90_000);
});
