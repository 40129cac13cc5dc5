import { mkdirSync, writeFileSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { describeOn } from './utils/engine.js';
import {
  assertBuilt,
  BUILT_CLI,
  BUILT_MAIN,
  childEnvironment,
  jsonLines,
  run,
  scratchDirectory,
  ServiceProcess,
} from './utils/built-process.js';

/**
 * Each test waits on a process of its own to start and end; this only ends one that never does, so
 * it is several times what a start takes on a busy two-core machine.
 */
const TIMEOUT_MS = 180_000;
const testDatabaseUrl = process.env.DATABASE_URL ?? '';
const onMysql = testDatabaseUrl.startsWith('mysql://');

/** A port nothing listens on: taken from the system, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The test database's address with another user, password, database name or port. */
function mysqlUrl(change: { username?: string; password?: string; database?: string; port?: number }): string {
  const url = new URL(testDatabaseUrl);
  if (change.username !== undefined) url.username = change.username;
  if (change.password !== undefined) url.password = change.password;
  if (change.database !== undefined) url.pathname = `/${change.database}`;
  if (change.port !== undefined) url.port = String(change.port);
  return url.toString();
}

/** `node dist/main.js` (and the admin command line) facing a database it cannot use. */
describe('Start-up when the database cannot be used', () => {
  let workdir: ReturnType<typeof scratchDirectory>;

  beforeAll(() => assertBuilt());

  beforeEach(() => {
    workdir = scratchDirectory('sensor-records-startup-');
  });

  afterEach(() => {
    workdir.remove();
  });

  const start = (databaseUrl: string, retries = 0) =>
    run(process.execPath, [BUILT_MAIN], {
      cwd: workdir.path,
      env: childEnvironment({ PORT: '0', LOG_LEVEL: 'info', DATABASE_URL: databaseUrl, DB_CONNECT_RETRIES: String(retries) }),
    });

  it(
    'names the host and port when nothing listens there, in one line, and exits 1',
    async () => {
      const port = await closedPort();

      const result = await start(onMysql ? mysqlUrl({ port }) : `mysql://sensor:secret@127.0.0.1:${port}/records`);

      expect(result).toMatchObject({ code: 1, stdout: '' });
      expect(result.stderr).toBe(
        `Failed to start: Cannot connect to the database at 127.0.0.1:${port}: connection refused; check the host and port in DATABASE_URL and that MySQL/MariaDB is running.\n`,
      );
    },
    TIMEOUT_MS,
  );

  it(
    'logs each retry in the service log format, waiting longer each time, then gives up in one line',
    async () => {
      const port = await closedPort();

      const result = await start(`mysql://sensor:secret@127.0.0.1:${port}/records`, 2);

      const refused = `Cannot connect to the database at 127.0.0.1:${port}: connection refused; check the host and port in DATABASE_URL and that MySQL/MariaDB is running.`;
      expect(jsonLines(result.stdout)).toEqual([
        expect.objectContaining({ level: 40, context: 'Database', msg: `${refused} Retrying in 1 s (retry 1 of 2).` }),
        expect.objectContaining({ level: 40, context: 'Database', msg: `${refused} Retrying in 2 s (retry 2 of 2).` }),
      ]);
      expect(result.stderr).toBe(`Failed to start: ${refused} Gave up after 2 retries.\n`);
      expect(result.code).toBe(1);
    },
    TIMEOUT_MS,
  );

  it(
    'names the settings file the database address came from',
    async () => {
      const port = await closedPort();
      writeFileSync(join(workdir.path, '.env'), `DATABASE_URL=mysql://sensor:secret@127.0.0.1:${port}/records\n`);

      const result = await run(process.execPath, [BUILT_MAIN], {
        cwd: workdir.path,
        env: childEnvironment({ PORT: '0', LOG_LEVEL: 'info', DB_CONNECT_RETRIES: '0' }),
      });

      expect(result).toMatchObject({ code: 1, stdout: '' });
      expect(result.stderr).toBe(
        `Failed to start: Cannot connect to the database at 127.0.0.1:${port}: connection refused; check the host and port in DATABASE_URL and that MySQL/MariaDB is running. (settings read from ${join(workdir.path, '.env')})\n`,
      );
    },
    TIMEOUT_MS,
  );

  it(
    'says the database address came from the environment when it did, though a settings file was read',
    async () => {
      const port = await closedPort();
      writeFileSync(join(workdir.path, '.env'), `DATABASE_URL=mysql://sensor:secret@127.0.0.1:1/unused\nLOG_LEVEL=info\n`);

      const result = await run(process.execPath, [BUILT_MAIN], {
        cwd: workdir.path,
        env: childEnvironment({ PORT: '0', DATABASE_URL: `mysql://sensor:secret@127.0.0.1:${port}/records`, DB_CONNECT_RETRIES: '0' }),
      });

      expect(result).toMatchObject({ code: 1, stdout: '' });
      expect(result.stderr).toBe(
        `Failed to start: Cannot connect to the database at 127.0.0.1:${port}: connection refused; check the host and port in DATABASE_URL and that MySQL/MariaDB is running. (settings read from ${join(workdir.path, '.env')}; DATABASE_URL from the environment)\n`,
      );
    },
    TIMEOUT_MS,
  );

  it(
    'names an SQLite file it cannot open',
    async () => {
      const directory = join(workdir.path, 'a-directory');
      mkdirSync(directory);

      const result = await start(`sqlite:${directory}`);

      expect(result).toMatchObject({
        code: 1,
        stdout: '',
        stderr: `Failed to start: Cannot open the SQLite database ${directory}: unable to open database file; check DATABASE_URL and that the file's directory is writable.\n`,
      });
    },
    TIMEOUT_MS,
  );

  it(
    'gives the admin command line the same one-line answer',
    async () => {
      const port = await closedPort();

      const result = await run(process.execPath, [BUILT_CLI, 'client:create', '--label', 'L'], {
        cwd: workdir.path,
        env: childEnvironment({ DATABASE_URL: `mysql://sensor:secret@127.0.0.1:${port}/records`, DB_CONNECT_RETRIES: '5' }),
      });

      expect(result).toMatchObject({
        code: 1,
        stdout: '',
        stderr: `Cannot connect to the database at 127.0.0.1:${port}: connection refused; check the host and port in DATABASE_URL and that MySQL/MariaDB is running.\n`,
      });
    },
    TIMEOUT_MS,
  );

  // These need a MySQL/MariaDB server to answer: they run in `npm run test:mysql`.
  describeOn('mysql', 'on a MySQL server', () => {
    it(
      'says how to create a database that does not exist',
      async () => {
        const missing = `sensor_records_missing_${process.pid}`;

        const result = await start(mysqlUrl({ database: missing }), 3);

        expect(result).toMatchObject({
          code: 1,
          stdout: '',
          stderr: `Failed to start: Database "${missing}" does not exist on ${new URL(testDatabaseUrl).host}: create it with CREATE DATABASE \`${missing}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;\n`,
        });
      },
      TIMEOUT_MS,
    );

    it(
      'says to check the credentials when they are refused, without retrying',
      async () => {
        const result = await start(mysqlUrl({ username: 'sensor_records_nobody', password: 'not-the-password' }), 3);

        expect(result).toMatchObject({
          code: 1,
          stdout: '',
          stderr: `Failed to start: Access denied for user "sensor_records_nobody" on ${new URL(testDatabaseUrl).host}: check the user name and password in DATABASE_URL.\n`,
        });
      },
      TIMEOUT_MS,
    );

    it(
      'starts once a server that refused the first connections answers',
      async () => {
        const port = await closedPort();
        const target = new URL(testDatabaseUrl);
        let relay: Server | undefined;
        const sockets = new Set<Socket>();
        const service = new ServiceProcess({
          cwd: workdir.path,
          // Retries 1, 2, 4 … 128 s apart: the relay comes up within seconds of the first, whatever the machine's pace.
          env: childEnvironment({ PORT: '0', LOG_LEVEL: 'info', DATABASE_URL: mysqlUrl({ port }), DB_CONNECT_RETRIES: '8' }),
        });
        try {
          // The server "comes up" once the service has logged its first retry.
          await service.waitForLine((line) => /Retrying in 1 s \(retry 1 of 8\)\.$/.test(String(line.msg)));
          relay = createServer((client) => {
            const upstream = createConnection(Number(target.port || 3306), target.hostname);
            for (const socket of [client, upstream]) {
              sockets.add(socket);
              socket.on('error', () => socket.destroy());
              socket.on('close', () => sockets.delete(socket));
            }
            client.pipe(upstream).pipe(client);
          });
          await new Promise<void>((resolve) => relay!.listen(port, '127.0.0.1', resolve));

          const servicePort = await service.serving();

          expect((await fetch(`http://127.0.0.1:${servicePort}/health/ready`)).status).toBe(200);
        } finally {
          await service.stop();
          for (const socket of sockets) socket.destroy();
          await new Promise((resolve) => (relay ? relay.close(resolve) : resolve(undefined)));
        }
      },
      TIMEOUT_MS,
    );
  });
});
