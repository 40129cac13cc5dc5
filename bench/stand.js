// @ts-check
// What the scenarios run against: a fresh MariaDB database, signing keys, the built service in
// production mode with a client, a user, a token and a TTS integration key; on demand the two floors
// (the pipeline floor and the bare floor) and the service as built from another revision (the
// baseline), each started once and stopped at the end; their memory sampled.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import { join } from 'node:path';
import { SignJWT, importPKCS8 } from 'jose';
import { buildBaseline } from './baseline.js';
import { bodyTemplates } from './bodies.js';
import { ensureServer, openDatabase, recreateDatabase } from './database.js';
import { FLOOR_ONLY_SCHEMA } from './floor-only-schema.js';
import { answerBytes } from './ingest-load.js';
import { databaseServerPid, logTail, memoryOf, runCommand, startChild, stop, waitForHttp } from './processes.js';
import { passwordGrant } from './token-load.js';

/** @typedef {import('./processes.js').BenchChild} BenchChild */
/** @typedef {{ client_id: string; client_secret: string; username: string; password: string }} Credentials */

/**
 * One server under load. `token` is a bearer token of its bench user; `db` the connection to the
 * database it writes (the accounting reads rows back from it).
 * @typedef {object} Server
 * @property {string} name
 * @property {string} url
 * @property {BenchChild} child
 * @property {string} token
 * @property {import('mysql2/promise').Connection} db
 */

/**
 * A service (this tree, or the baseline): a Server plus what its scenarios need.
 * @typedef {Server & {
 *   dir: string;
 *   env: NodeJS.ProcessEnv;
 *   credentials: Credentials;
 *   uplinkKey: string;
 *   cli: (args: string[]) => Promise<any>;
 *   stop: () => Promise<void>;
 *   start: () => Promise<void>;
 * }} Service
 */

export const log = (message) => process.stderr.write(`bench: ${message}\n`);

/** A port nobody listens on now. */
async function freePort() {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const { port } = /** @type {net.AddressInfo} */ (server.address());
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Environment for children: the caller's, minus anything that would point the service elsewhere. */
function childEnv(extra) {
  const base = { ...process.env };
  for (const key of Object.keys(base)) {
    if (/^(DATABASE_URL|BASE_URL|PORT|OAUTH_|ACCESS_TOKEN_TTL|REFRESH_TOKEN_TTL|DB_|NODE_OPTIONS$|BENCH_|FLOOR_)/.test(key))
      delete base[key];
  }
  return { ...base, ...extra };
}

/** Runs the admin command line of the service built in `dir`; its last output line, parsed. */
async function cli(dir, args, env) {
  const { code, stdout, stderr } = await runCommand(process.execPath, ['dist/cli.js', ...args], { cwd: dir, env, timeoutMs: 60_000 });
  if (code !== 0) throw new Error(`node dist/cli.js ${args[0]} failed (${code}): ${stderr.trim() || stdout.trim()}`);
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '');
}

/** The node flags of the `start` script (`[exec] node <flags> dist/main.js`). */
function startScriptNodeFlags(root) {
  const start = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts.start;
  const flags = /^(?:exec\s+)?node\s+(.*?)\s*dist\/main\.js$/.exec(start);
  if (!flags) throw new Error(`package.json "start" is not "[exec] node [flags] dist/main.js": ${start}`);
  return (flags[1] ?? '').split(/\s+/).filter(Boolean);
}

/**
 * The process id of the database server the bench talks to, from its pid file: other MariaDB servers
 * may run on the machine (a test cluster), and their CPU is not this run's.
 * @param {import('mysql2/promise').Connection} db
 */
async function serverPid(db) {
  try {
    const [rows] = await db.query('SELECT @@pid_file AS pidFile');
    const [{ pidFile }] = /** @type {[{ pidFile: string }]} */ (rows);
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/**
 * Opens the stand: database, keys, and (unless `floorOnly`) the service. Floors and the baseline
 * start when a scenario asks for them (`stand.floors()`, `stand.baseline()`).
 * @param {Record<string, any>} cfg the runner's options
 * @param {string} root the repository
 * @param {string} stamp the run's time stamp, in the names of its files
 */
export async function openStand(cfg, root, stamp) {
  const resultsDir = join(root, 'bench', 'results');
  const tmp = mkdtempSync(join(os.tmpdir(), 'sensor-bench-'));
  process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
  const port = async (configured) => (configured > 0 ? configured : freePort());

  // Database: fresh every run.
  const admin = await ensureServer(cfg.databaseServer);
  const [versionRows] = await admin.query('SELECT VERSION() AS version');
  const [{ version }] = /** @type {[{ version: string }]} */ (versionRows);
  await recreateDatabase(admin, cfg.database);
  await admin.end();
  const serverUrl = cfg.databaseServer.replace(/\/+$/, '');
  const databaseUrl = `${serverUrl}/${cfg.database}`;
  const db = await openDatabase(cfg.databaseServer, cfg.database);
  const dbPid = (await serverPid(db)) ?? databaseServerPid();
  log(`database ${cfg.database} recreated on MariaDB ${version}`);

  // Signing keys for production mode, shared by the services and the floors.
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const privatePath = join(tmp, 'oauth-private.pem');
  const publicPath = join(tmp, 'oauth-public.pem');
  writeFileSync(privatePath, privateKey, { mode: 0o600 });
  writeFileSync(publicPath, publicKey, { mode: 0o644 });

  const profileDir = join(resultsDir, `profiles-${stamp}`);
  /** Node flags that make a child write a CPU profile named `name` when profiling. */
  const profileFlags = (name) =>
    cfg.profile
      ? [
          '--cpu-prof',
          `--cpu-prof-dir=${profileDir}`,
          `--cpu-prof-name=${name}.cpuprofile`,
          '--import',
          join(root, 'bench/exit-on-sigterm.js'),
        ]
      : [];
  // The flags `npm start` runs the service with (the heap cap), so the figures are those of a deployment.
  const serviceFlags = [...startScriptNodeFlags(root), ...(process.env.BENCH_SERVICE_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean)];
  const machine = `${os.cpus().length} CPUs ${os.cpus()[0]?.model?.trim() ?? ''}, node ${process.version}, MariaDB ${version}`;

  /**
   * Starts the service built in `dir` on a database of its own, with a client, a user, a token and a
   * TTS integration key (its uplinks become records of that user, dev_id the device id).
   * @returns {Promise<Service>}
   */
  async function startService(name, dir, database, servicePort, serviceDb) {
    const url = `http://127.0.0.1:${servicePort}`;
    const env = childEnv({
      NODE_ENV: 'production',
      PORT: String(servicePort),
      BASE_URL: `http://localhost:${servicePort}`,
      DATABASE_URL: `${serverUrl}/${database}`,
      DB_POOL_SIZE: String(cfg.poolSize),
      OAUTH_PRIVATE_KEY: privatePath,
      OAUTH_PUBLIC_KEY: publicPath,
      ACCESS_TOKEN_TTL: String(Math.max(3600, cfg.timeout * 2)),
      SITE_TIMEZONE: cfg.siteTimezone,
    });
    const spawn = () =>
      startChild(name, process.execPath, [...serviceFlags, ...profileFlags(name), 'dist/main.js'], {
        cwd: dir,
        env,
        logFile: join(resultsDir, `${name}-${stamp}.log`),
      });
    log(`starting ${name} on ${url} (NODE_ENV=production${serviceFlags.length ? `, node ${serviceFlags.join(' ')}` : ''})`);
    const child = spawn();
    await waitForHttp(`${url}/health/ready`, child, 90_000);
    const run = (args) => cli(dir, args, env);
    const client = await run(['client:create', '--label', 'bench']);
    const username = `bench-${randomBytes(3).toString('hex')}`;
    // Hex: a password starting with '-' would read as an option on the command line.
    const password = randomBytes(12).toString('hex');
    await run(['user:create', '--username', username, '--password', password]);
    const credentials = { client_id: client.client_id, client_secret: client.client_secret, username, password };
    const uplinkKey = (await run(['integration:create', '--user', username, '--network', 'tts', '--dev-id', 'name'])).api_key;
    const token = (await passwordGrant(url, credentials)).access_token;
    log(`${name}: client ${client.client_id}, user ${username}, token obtained (${token.length} chars)`);
    /** @type {Service} */
    const service = {
      name,
      url,
      child,
      token,
      db: serviceDb,
      dir,
      env,
      credentials,
      uplinkKey,
      cli: run,
      stop: () => stop(service.child),
      /** Starts the service again after `stop()`: a fresh process, its memory figures its own. */
      async start() {
        service.child = spawn();
        await waitForHttp(`${url}/health/ready`, service.child, 90_000);
      },
    };
    return service;
  }

  /** @type {Service | null} */
  let service = null;
  /** @type {string} */
  let floorToken;
  let floorClientId;
  if (!cfg.floorOnly) {
    if (cfg.build) {
      // `npm run build`: the service and its fleet page.
      log('building (scripts/build.js)');
      const built = await runCommand(process.execPath, ['scripts/build.js'], {
        cwd: root,
        timeoutMs: 300_000,
      });
      if (built.code !== 0) throw new Error(`build failed:\n${built.stdout}${built.stderr}`);
    } else if (!existsSync(join(root, 'dist/main.js'))) {
      throw new Error('dist/main.js missing: run without --no-build');
    }
    service = await startService('service', root, cfg.database, await port(cfg.servicePort), db);
    floorToken = service.token;
    floorClientId = service.credentials.client_id;
  } else {
    await db.query(FLOOR_ONLY_SCHEMA);
    floorClientId = 'floor-only-client';
    const now = Math.floor(Date.now() / 1000);
    floorToken = await new SignJWT({ scope: 'sensor_record' })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
      .setIssuer('http://localhost:0')
      .setAudience(floorClientId)
      .setSubject('1')
      .setJti(randomBytes(16).toString('hex'))
      .setIssuedAt(now)
      .setNotBefore(now)
      .setExpirationTime(now + 3600)
      .sign(await importPKCS8(privateKey, 'RS256'));
    log('floor-only: own sensor_report table, locally signed token');
  }
  const issuer = service ? service.env.BASE_URL : 'http://localhost:0';

  /** @type {{ floor: Server; pipeline: Server | null } | null} */
  let floors = null;
  /** @type {Service | null | undefined} */
  let baseline;
  const memory = {};
  const watched = () => /** @type {Server[]} */ ([service, baseline, floors?.floor, floors?.pipeline].filter(Boolean));
  /** Peak memory: VmHWM, plus our own VmRSS samples in case a process dies early. */
  const sample = () => {
    for (const server of watched()) {
      if (server.child.exitCode !== null) continue;
      const m = memoryOf(server.child.pid);
      const seen = (memory[server.name] ??= { readyRssMiB: m.rssMiB, hwmMiB: NaN, rssPeakMiB: 0 });
      if (Number.isFinite(m.hwmMiB)) seen.hwmMiB = m.hwmMiB;
      if (m.rssMiB > seen.rssPeakMiB) seen.rssPeakMiB = m.rssMiB;
    }
  };
  const sampler = setInterval(sample, 200);
  sample();

  return {
    cfg,
    root,
    resultsDir,
    profileDir,
    stamp,
    machine,
    db,
    dbPid,
    privateKey,
    templates: bodyTemplates(),
    service,
    /** Resident memory of each server by name: ready, and the peaks so far. */
    memory,
    sample,

    /**
     * The bare floor and (beside a service) the pipeline floor, started on first call.
     * @returns {Promise<{ floor: Server; pipeline: Server | null }>}
     */
    async floors() {
      if (floors) return floors;
      const floorPort = await port(cfg.floorPort);
      const floorChild = startChild('floor', process.execPath, [...profileFlags('floor'), 'bench/floor-server.js'], {
        cwd: root,
        env: childEnv({
          FLOOR_PORT: String(floorPort),
          DATABASE_URL: databaseUrl,
          OAUTH_PUBLIC_KEY: publicPath,
          FLOOR_ISSUER: cfg.floorOnly ? 'http://localhost:0' : issuer,
          FLOOR_CLIENT_ID: floorClientId,
          FLOOR_POOL_SIZE: String(cfg.poolSize),
          SITE_TIMEZONE: cfg.siteTimezone,
        }),
        logFile: join(resultsDir, `floor-${stamp}.log`),
      });
      const floorUrl = `http://127.0.0.1:${floorPort}`;
      await waitForHttp(`${floorUrl}/health`, floorChild, 30_000);
      log(`floor listening on ${floorUrl}: ${logTail(floorChild, 1)}`);
      /** @type {Server | null} */
      let pipeline = null;
      if (service) {
        // The pipeline floor answers with as many bytes as the service does.
        const answerSize = await answerBytes(service.url, service.token, this.templates);
        const pipelinePort = await port(cfg.pipelineFloorPort);
        const pipelineChild = startChild('pipeline', process.execPath, [...profileFlags('pipeline'), 'bench/pipeline-floor.js'], {
          cwd: root,
          env: childEnv({
            PIPELINE_FLOOR_PORT: String(pipelinePort),
            DATABASE_URL: databaseUrl,
            OAUTH_PUBLIC_KEY: publicPath,
            FLOOR_ISSUER: issuer,
            FLOOR_POOL_SIZE: String(cfg.poolSize),
            SITE_TIMEZONE: cfg.siteTimezone,
            PIPELINE_FLOOR_ANSWER_BYTES: String(answerSize),
          }),
          logFile: join(resultsDir, `pipeline-floor-${stamp}.log`),
        });
        const pipelineUrl = `http://127.0.0.1:${pipelinePort}`;
        await waitForHttp(`${pipelineUrl}/health`, pipelineChild, 60_000);
        log(`pipeline floor listening on ${pipelineUrl}, answering ${answerSize} bytes as the service does`);
        pipeline = { name: 'pipeline', url: pipelineUrl, child: pipelineChild, token: floorToken, db };
      }
      floors = { floor: { name: 'floor', url: floorUrl, child: floorChild, token: floorToken, db }, pipeline };
      sample();
      return floors;
    },

    /**
     * The service as built from `--baseline REV`, on a database of its own, started on first call;
     * null without `--baseline`.
     * @returns {Promise<Service | null>}
     */
    async baseline() {
      if (baseline !== undefined) return baseline;
      if (!cfg.baseline || !service) return (baseline = null);
      log(`building the baseline from ${cfg.baseline}`);
      const dir = await buildBaseline(root, cfg.baseline);
      process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
      const database = `${cfg.database}_baseline`;
      const baselineAdmin = await ensureServer(cfg.databaseServer);
      await recreateDatabase(baselineAdmin, database);
      await baselineAdmin.end();
      const baselineDb = await openDatabase(cfg.databaseServer, database);
      baseline = await startService('baseline', dir, database, await port(cfg.baselinePort), baselineDb);
      sample();
      return baseline;
    },

    /** Stops every server and closes the connections. */
    async close() {
      clearInterval(sampler);
      for (const server of watched()) await stop(server.child);
      await baseline?.db.end();
      await db.end();
    },
  };
}

/** @typedef {Awaited<ReturnType<typeof openStand>>} Stand */
