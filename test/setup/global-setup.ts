import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Connection, createConnection } from 'mysql2/promise';

/** Where the test run's key pair was written; globalTeardown removes it. */
const TEST_KEY_DIRECTORY = Symbol.for('sensor-records.test-key-directory');
/** The connection holding the run's claim on its MySQL test databases; globalTeardown closes it. */
const TEST_DATABASE_CLAIM = Symbol.for('sensor-records.test-database-claim');

/**
 * Runs once before all suites. Gives every suite one signing key pair (generating 2048-bit keys per
 * suite would dominate the run time), builds dist/ when it is missing or older than src/ (some
 * suites run the built service and command line as real processes; this is the run's one build) and,
 * for a MySQL run, creates the test database of each worker — after refusing any database whose name
 * does not say it is for tests, or that another run on the same server is using.
 */
export default async function globalSetup(globalConfig: { maxWorkers: number }): Promise<void> {
  process.env.NODE_ENV = 'test';
  if (!process.env.OAUTH_PRIVATE_KEY) {
    const directory = mkdtempSync(join(tmpdir(), 'sensor-records-test-keys-'));
    (globalThis as Record<symbol, unknown>)[TEST_KEY_DIRECTORY] = directory;
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    writeFileSync(join(directory, 'private.key'), privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    writeFileSync(join(directory, 'public.key'), publicKey.export({ type: 'spki', format: 'pem' }));
    process.env.OAUTH_PRIVATE_KEY = join(directory, 'private.key');
    process.env.OAUTH_PUBLIC_KEY = join(directory, 'public.key');
  }
  const root = fileURLToPath(new URL('../..', import.meta.url));
  execFileSync(process.execPath, [join(root, 'scripts/build-if-needed.js')], { cwd: root, stdio: 'inherit' });
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl?.startsWith('mysql://')) {
    const urls = workerDatabaseUrls(databaseUrl, globalConfig.maxWorkers);
    for (const url of urls) await createMysqlTestDatabase(url);
    (globalThis as Record<symbol, unknown>)[TEST_DATABASE_CLAIM] = await claimTestDatabases(urls);
    // Read by each test file's environment (environment.ts), in the worker's process.
    process.env.WORKER_DATABASE_URLS = urls.join(' ');
  }
}

/**
 * The MySQL database of each Jest worker. Files on one database would empty each other's tables, so
 * with more than one worker each has its own: worker 1 the database DATABASE_URL names, worker N
 * `<name>_w<N>` beside it.
 */
function workerDatabaseUrls(databaseUrl: string, workers: number): string[] {
  return Array.from({ length: Math.max(1, workers) }, (_, index) => {
    if (index === 0) return databaseUrl;
    const url = new URL(databaseUrl);
    url.pathname = `/${decodeURIComponent(url.pathname.slice(1))}_w${index + 1}`;
    return url.toString();
  });
}

async function createMysqlTestDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  if (!/test/i.test(name)) {
    throw new Error(`Refusing to run the test suites against "${name}": its name must contain "test".`);
  }
  url.pathname = '/';
  const connection = await createConnection({ uri: url.toString(), connectTimeout: 5000 });
  try {
    await connection.query(`CREATE DATABASE IF NOT EXISTS \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  } finally {
    await connection.end();
  }
}

/**
 * Takes a named lock on the server for each worker's database, held by one connection until the run
 * ends (globalTeardown closes it; a killed run's connection closes with it). Each file empties the
 * tables of its database, so a second run on the same database would delete the first one's rows under
 * it and fail it in ways that look like the service's fault (a 201 whose row is gone): refused here.
 */
async function claimTestDatabases(databaseUrls: string[]): Promise<Connection> {
  const connection = await createConnection({ uri: databaseUrls[0]!, connectTimeout: 5000 });
  try {
    for (const databaseUrl of databaseUrls) {
      const name = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
      const [[row]] = (await connection.query('SELECT GET_LOCK(?, 0) AS taken', [`sensor-records-test:${name}`.slice(0, 64)])) as [
        Array<{ taken: number | null }>,
        unknown,
      ];
      if (row?.taken !== 1) {
        throw new Error(
          `Another test run is using the database "${name}" on this server; give this run its own with DATABASE_URL=mysql://…/<name containing "test">.`,
        );
      }
    }
    return connection;
  } catch (error) {
    await connection.end();
    throw error;
  }
}
