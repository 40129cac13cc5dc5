import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { DataSource } from 'typeorm';
import { migrations } from '../src/database/migrations/index.js';
import { type BuiltService, buildService } from './utils/built-service.js';

interface FreshDatabase {
  url: string;
  /** Rows of a query, read directly rather than through the service. */
  query<T>(sql: string): Promise<T[]>;
  drop(): Promise<void>;
}

/** A database no instance has migrated yet: a SQLite file of its own, or a MySQL database beside the test one. */
async function freshDatabase(directory: string, round: number): Promise<FreshDatabase> {
  const original = process.env.DATABASE_URL ?? 'sqlite::memory:';
  if (!original.startsWith('mysql://')) {
    const path = join(directory, `shared-${round}.sqlite`);
    return {
      url: `sqlite:${path}`,
      async query<T>(sql: string) {
        const reader = await new DataSource({ type: 'better-sqlite3', database: path }).initialize();
        try {
          return (await reader.query(sql)) as T[];
        } finally {
          await reader.destroy();
        }
      },
      drop: async () => undefined,
    };
  }
  const url = new URL(original);
  const name = `${decodeURIComponent(url.pathname.slice(1))}_concurrent_start`;
  url.pathname = '/';
  const admin = await createConnection({ uri: url.toString() });
  await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
  await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    query: async <T>(sql: string) => (await admin.query(sql.replace(/\bFROM (\w+)/, `FROM \`${name}\`.$1`)))[0] as T[],
    async drop() {
      await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await admin.end();
    },
  };
}

/**
 * Processes of the built service started together on an empty database, each applying the migrations
 * before it does anything else (here: the admin command line, which migrates as the service does at
 * start-up). Whether two of them meet inside the migrations is up to the machine, so there are three
 * at a time, three times over; without the lock SQLite failed about one start in five.
 */
describe('Instances starting at the same moment on an empty database', () => {
  let built: BuiltService;

  beforeAll(async () => {
    built = await buildService();
  }, 120_000);

  afterAll(() => {
    built?.remove();
  });

  it.each([1, 2, 3])(
    'all start, and each migration is applied once (round %i)',
    async (round) => {
      const database = await freshDatabase(built.directory, round);
      const start = (label: string) =>
        new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
          const child = execFile(
            process.execPath,
            [join(built.dist, 'cli.js'), 'client:create', '--label', label],
            { env: { ...process.env, DATABASE_URL: database.url } },
            (_error, stdout, stderr) => done({ code: child.exitCode, stdout, stderr }),
          );
        });

      try {
        const started = await Promise.all(['a', 'b', 'c'].map(start));

        for (const { code, stdout, stderr } of started) {
          expect({ code, stdout: stdout.trim(), stderr }).toEqual({
            code: 0,
            stdout: expect.stringMatching(/^\{"client_id":.*\}$/),
            stderr: '',
          });
        }
        const applied = await database.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
        expect(applied.map((row) => row.name)).toEqual(migrations.map((migration) => migration.name).sort());
        const clients = await database.query<{ label: string }>('SELECT label FROM oauth_clients ORDER BY label');
        expect(clients.map((row) => row.label)).toEqual(['a', 'b', 'c']);
      } finally {
        await database.drop();
      }
    },
    60_000,
  );
});
