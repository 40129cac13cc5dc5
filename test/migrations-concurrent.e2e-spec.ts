import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { createConnection } from 'mysql2/promise';
import { DataSource, type QueryRunner } from 'typeorm';
import { withLeaseIfFree } from '../src/database/lease.js';
import { migrations } from '../src/database/migrations/index.js';
import { finished, type Finished } from './utils/built-process.js';
import { type BuiltService, buildService } from './utils/built-service.js';
import { until } from './utils/until.js';

const ANNOUNCE_STATEMENTS = fileURLToPath(new URL('./utils/announce-statements.mjs', import.meta.url));

/** An instance of the built service starting: the admin command line, which migrates as the service does at start-up. */
interface Instance {
  child: ChildProcess;
  /** The SQL statements it has prepared on SQLite, in order (announce-statements.mjs). */
  statements: string[];
  ended: boolean;
  result: Promise<Finished>;
}

interface FreshDatabase {
  url: string;
  /** Holds the migrations' lock, as an instance migrating would. */
  hold(): Promise<void>;
  /** How many of the instances are waiting at the lock now. */
  waiting(instances: Instance[]): Promise<number>;
  release(): Promise<void>;
  /** Rows of a query, read directly rather than through the service. */
  query<T>(sql: string): Promise<T[]>;
  drop(): Promise<void>;
}

/** A statement that needs SQLite's write lock, which the holder keeps. */
const WRITE = /^(BEGIN IMMEDIATE|BEGIN EXCLUSIVE|CREATE|ALTER|DROP|INSERT|UPDATE|DELETE)\b/i;

/**
 * A database no instance has migrated yet. SQLite: a file of its own, whose write lock the test holds
 * as a migrating instance does (runMigrations' BEGIN IMMEDIATE); an instance is waiting when the last
 * statement it prepared needs that lock. MySQL: a database beside the test one, whose lease
 * `migrations` the test holds by a row inserted and left uncommitted, so that an instance taking the
 * lease waits for it inside the server, where the process list shows it.
 */
async function freshDatabase(directory: string): Promise<FreshDatabase> {
  const original = process.env.DATABASE_URL ?? 'sqlite::memory:';
  if (!original.startsWith('mysql://')) {
    const path = join(directory, 'shared.sqlite');
    let holder: DataSource | undefined;
    const open = () => new DataSource({ type: 'better-sqlite3', database: path, enableWAL: true }).initialize();
    return {
      url: `sqlite:${path}`,
      async hold() {
        holder = await open();
        await holder.query('BEGIN IMMEDIATE');
      },
      waiting: async (instances) => instances.filter((instance) => WRITE.test(instance.statements.at(-1) ?? '')).length,
      async release() {
        await holder?.query('ROLLBACK');
        await holder?.destroy();
        holder = undefined;
      },
      async query<T>(sql: string) {
        const reader = await open();
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
  let holder: { source: DataSource; runner: QueryRunner } | undefined;
  return {
    url: url.toString(),
    async hold() {
      const source = await new DataSource({ type: 'mysql', url: url.toString() }).initialize();
      // The lease table as the service makes it.
      await withLeaseIfFree(source, 'migrations', async () => undefined);
      const runner = source.createQueryRunner();
      await runner.startTransaction();
      await runner.query("INSERT INTO leases (name, holder, expires_at) VALUES ('migrations', 'the test', UTC_TIMESTAMP())");
      holder = { source, runner };
    },
    async waiting() {
      const [rows] = await admin.query(
        "SELECT COUNT(*) AS waiting FROM information_schema.PROCESSLIST WHERE DB = ? AND COMMAND = 'Query' AND INFO LIKE '%leases%'",
        [name],
      );
      return Number((rows as Array<{ waiting: number }>)[0]!.waiting);
    },
    async release() {
      await holder?.runner.rollbackTransaction();
      await holder?.runner.release();
      await holder?.source.destroy();
      holder = undefined;
    },
    query: async <T>(sql: string) => (await admin.query(sql.replace(/\bFROM (\w+)/, `FROM \`${name}\`.$1`)))[0] as T[],
    async drop() {
      await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await admin.end();
    },
  };
}

/**
 * Instances of the built service started together on an empty database, each applying the migrations
 * before it does anything else. Whether two of them would meet inside the migrations on their own is up
 * to the machine, so the test makes them meet: it holds the migrations' lock while they start, waits
 * until each is waiting at it, or until one gets past it as it would without one, and only then lets
 * go. Timed by those conditions alone, so a slow machine only waits longer.
 */
describe('Instances starting at the same moment on an empty database', () => {
  let built: BuiltService;

  beforeAll(async () => {
    built = await buildService();
  });

  afterAll(() => {
    built?.remove();
  });

  it('wait while another instance migrates, then all start, and each migration is applied once', async () => {
    const database = await freshDatabase(built.directory);
    const start = (label: string): Instance => {
      const child = spawn(
        process.execPath,
        ['--import', ANNOUNCE_STATEMENTS, join(built.dist, 'cli.js'), 'client:create', '--label', label],
        {
          env: { ...process.env, DATABASE_URL: database.url },
          stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
        },
      );
      const instance: Instance = { child, statements: [], ended: false, result: finished(child) };
      let pending = '';
      (child.stdio[3] as Readable).setEncoding('utf8').on('data', (chunk: string) => {
        const lines = (pending + chunk).split('\n');
        pending = lines.pop()!;
        instance.statements.push(...lines);
      });
      void instance.result.then(() => (instance.ended = true));
      return instance;
    };

    try {
      await database.hold();
      let instances: Instance[];
      try {
        instances = ['a', 'b', 'c'].map(start);
        await until(async () => instances.some((instance) => instance.ended) || (await database.waiting(instances)) === 3);

        // None got past the lock while it was held.
        expect(instances.map((instance) => instance.ended)).toEqual([false, false, false]);
      } finally {
        await database.release();
      }
      const started = await Promise.all(instances.map((instance) => instance.result));

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
  }, 180_000);
});
