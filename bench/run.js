// @ts-check
// `npm run bench`: ingestion benchmark of the service against two floors, the pipeline floor (a Nest
// application with only the mandated pieces, bench/pipeline-floor.js) and the bare floor (node:http,
// bench/floor-server.js); the batch route against the bare floor's records per second; the token
// endpoint against the machine's RSA signing rate (what it measures: the Benchmark section of the
// README). Options (flags or environment), all optional:
//
//   --rounds N            BENCH_ROUNDS            alternating rounds per side (3)
//   --duration S          BENCH_DURATION          seconds per round and side (10)
//   --connections C       BENCH_CONNECTIONS       concurrent connections (32)
//   --warmup S            BENCH_WARMUP            warm-up seconds per side, not in the figures (3)
//   --uplink-duration S   BENCH_UPLINK_DURATION   seconds of TTS webhook uplinks to the service after the
//                                                 rounds (after a warm-up); 0 skips (10)
//   --token-duration S    BENCH_TOKEN_DURATION    seconds per token grant kind; 0 skips (5)
//   --token-concurrency C BENCH_TOKEN_CONCURRENCY concurrent token clients (= connections)
//   --batch-size N        BENCH_BATCH_SIZE        reports per request of the batch scenario; 0 skips (100)
//   --batch-connections C BENCH_BATCH_CONNECTIONS concurrent batch senders (4: relays are fewer than devices; the
//                                                 service's BATCHES_IN_FLIGHT default)
//   --signing-duration S  BENCH_SIGNING_DURATION  seconds per RSA signing measurement; 0 skips (2)
//   --no-build            BENCH_BUILD=0           use dist/ as it is
//   --profile             BENCH_PROFILE=1         CPU profiles of service and floor into bench/results/
//   --floor-only                                  harness self-test: bare floor alone on its own table
//   --only SIDE                                   load one side only (service, pipeline, floor, batch)
//   --scenarios LIST      BENCH_SCENARIOS         what to run, of "ingest,read" (both)
//   --records N           BENCH_RECORDS           read side: records in the seeded table (1000000)
//   --sensors N           BENCH_SENSORS           read side: devices they come from (10000)
//   --baseline REV        BENCH_BASELINE          ingestion: also drive the service as built from the git
//                                                 revision REV (e.g. the commit before a change), in the
//                                                 same alternating rounds, on a database of its own
//   BENCH_TOKEN_KINDS          token grants measured, in order ("refresh,password")
//   BENCH_SERVICE_NODE_FLAGS   node flags for the service after those of `npm start` (a repeated flag
//                              overrides), e.g. "--max-semi-space-size=32"
//   BENCH_DATABASE_SERVER (mysql://root@127.0.0.1:3306), BENCH_DATABASE (sensor_records_bench),
//   BENCH_SERVICE_PORT (3900), BENCH_FLOOR_PORT (3901), BENCH_PIPELINE_FLOOR_PORT (3902), BENCH_BASELINE_PORT (3903),
//   BENCH_DB_POOL_SIZE (10), BENCH_TIMEOUT (900 s)
//
// Exit status: 0 clean; 1 a record lost or extra, a non-2xx or connection error under valid load;
// 2 the harness itself failed (build, start-up, database).
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SignJWT, importPKCS8 } from 'jose';
import { bodyTemplates } from './bodies.js';
import { counterRates, ensureServer, openDatabase, recreateDatabase, statusCounters } from './database.js';
import { FLOOR_ONLY_SCHEMA } from './floor-only-schema.js';
import { account, answerBytes, ingestRun, summarize } from './ingest-load.js';
import { cpuSecondsOf, databaseServerPid, killAll, logTail, memoryOf, runCommand, startChild, stop, waitForHttp } from './processes.js';
import { baselineReport, markdownReport, median, sideSummary } from './report.js';
import { buildBaseline } from './baseline.js';
import { explainPlans, readScenarios, readSideReport, seedRecords } from './read-side.js';
import { signingRate } from './signing-rate.js';
import { passwordGrant, refreshChains, tokenRun } from './token-load.js';
import { uplinkTemplates } from './uplink-bodies.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Where The Things Stack's webhook posts uplink messages. */
const UPLINK_PATH = '/api-sensor/integrations/tts/uplink';
const resultsDir = join(root, 'bench', 'results');

function options(argv, env) {
  const flag = (name) => argv.includes(`--${name}`);
  const value = (name, envName, fallback) => {
    const i = argv.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
    const raw = i < 0 ? env[envName] : argv[i].includes('=') ? argv[i].split('=')[1] : argv[i + 1];
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw);
    if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} must be a non-negative number, got ${raw}`);
    return n;
  };
  const connections = value('connections', 'BENCH_CONNECTIONS', 32);
  return {
    rounds: value('rounds', 'BENCH_ROUNDS', 3),
    durationSec: value('duration', 'BENCH_DURATION', 10),
    connections,
    warmupSec: value('warmup', 'BENCH_WARMUP', 3),
    uplinkDurationSec: value('uplink-duration', 'BENCH_UPLINK_DURATION', 10),
    tokenDurationSec: value('token-duration', 'BENCH_TOKEN_DURATION', 5),
    tokenConcurrency: value('token-concurrency', 'BENCH_TOKEN_CONCURRENCY', connections),
    batchSize: value('batch-size', 'BENCH_BATCH_SIZE', 100),
    batchConnections: value('batch-connections', 'BENCH_BATCH_CONNECTIONS', 4),
    signingDurationSec: value('signing-duration', 'BENCH_SIGNING_DURATION', 2),
    build: !flag('no-build') && env.BENCH_BUILD !== '0',
    profile: flag('profile') || env.BENCH_PROFILE === '1',
    floorOnly: flag('floor-only'),
    scenarios: new Set((textOption(argv, 'scenarios') ?? env.BENCH_SCENARIOS ?? 'ingest,read').split(',').map((name) => name.trim())),
    records: value('records', 'BENCH_RECORDS', 1_000_000),
    sensors: value('sensors', 'BENCH_SENSORS', 10_000),
    baseline: textOption(argv, 'baseline') ?? env.BENCH_BASELINE ?? null,
    // Profiling aid: load only one side (`--only service`); the ratio is then not computed.
    only: textOption(argv, 'only'),
    databaseServer: env.BENCH_DATABASE_SERVER ?? 'mysql://root@127.0.0.1:3306',
    database: env.BENCH_DATABASE ?? 'sensor_records_bench',
    servicePort: value('service-port', 'BENCH_SERVICE_PORT', 3900),
    floorPort: value('floor-port', 'BENCH_FLOOR_PORT', 3901),
    pipelineFloorPort: value('pipeline-floor-port', 'BENCH_PIPELINE_FLOOR_PORT', 3902),
    baselinePort: value('baseline-port', 'BENCH_BASELINE_PORT', 3903),
    poolSize: value('pool-size', 'BENCH_DB_POOL_SIZE', 10),
    timeoutSec: value('timeout', 'BENCH_TIMEOUT', 900),
    siteTimezone: env.SITE_TIMEZONE ?? 'Pacific/Auckland',
  };
}

/** The text after `--name` or in `--name=text`, if given. */
function textOption(argv, name) {
  const i = argv.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  return i < 0 ? null : argv[i].includes('=') ? argv[i].slice(argv[i].indexOf('=') + 1) : argv[i + 1];
}

const log = (message) => process.stderr.write(`bench: ${message}\n`);
const stamp = new Date().toISOString().replace(/[:.]/g, '-');

/** Environment for children: the caller's, minus anything that would point the service elsewhere. */
function childEnv(extra) {
  const base = { ...process.env };
  for (const key of Object.keys(base)) {
    if (/^(DATABASE_URL|BASE_URL|PORT|OAUTH_|ACCESS_TOKEN_TTL|REFRESH_TOKEN_TTL|DB_|NODE_OPTIONS$|BENCH_|FLOOR_)/.test(key))
      delete base[key];
  }
  return { ...base, ...extra };
}

async function cli(args, env, cwd = root) {
  const { code, stdout, stderr } = await runCommand(process.execPath, ['dist/cli.js', ...args], { cwd, env, timeoutMs: 60_000 });
  if (code !== 0) throw new Error(`node dist/cli.js ${args[0]} failed (${code}): ${stderr.trim() || stdout.trim()}`);
  const line = stdout.trim().split('\n').at(-1);
  return JSON.parse(line);
}

async function main() {
  const cfg = options(process.argv.slice(2), process.env);
  const ingest = cfg.floorOnly || cfg.scenarios.has('ingest');
  if (!ingest) Object.assign(cfg, { rounds: 0, warmupSec: 0, tokenDurationSec: 0, uplinkDurationSec: 0, batchSize: 0 });
  const watchdog = setTimeout(() => {
    log(`watchdog: the run exceeded ${cfg.timeoutSec} s; stopping`);
    killAll('SIGKILL');
    process.exit(2);
  }, cfg.timeoutSec * 1000);
  watchdog.unref();
  mkdirSync(resultsDir, { recursive: true });
  const tmp = mkdtempSync(join(os.tmpdir(), 'sensor-bench-'));
  process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

  // Database: fresh every run.
  const admin = await ensureServer(cfg.databaseServer);
  const [versionRows] = await admin.query('SELECT VERSION() AS version');
  const [{ version }] = /** @type {[{ version: string }]} */ (versionRows);
  await recreateDatabase(admin, cfg.database);
  await admin.end();
  const databaseUrl = `${cfg.databaseServer.replace(/\/+$/, '')}/${cfg.database}`;
  const db = await openDatabase(cfg.databaseServer, cfg.database);
  log(`database ${cfg.database} recreated on MariaDB ${version}`);

  // Signing keys for production mode, shared by the service and the floor.
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const privatePath = join(tmp, 'oauth-private.pem');
  const publicPath = join(tmp, 'oauth-public.pem');
  writeFileSync(privatePath, privateKey, { mode: 0o600 });
  writeFileSync(publicPath, publicKey, { mode: 0o644 });

  const serviceUrl = `http://127.0.0.1:${cfg.servicePort}`;
  const baseUrl = `http://localhost:${cfg.servicePort}`;
  const floorUrl = `http://127.0.0.1:${cfg.floorPort}`;
  const pipelineUrl = `http://127.0.0.1:${cfg.pipelineFloorPort}`;
  const profileDir = join(resultsDir, `profiles-${stamp}`);
  const nodeFlags = (name) =>
    cfg.profile
      ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=${name}.cpuprofile`, '--import', './bench/exit-on-sigterm.js']
      : [];
  /** @type {import('./processes.js').BenchChild | null} */
  let service = null;
  /** @type {import('./processes.js').BenchChild | null} */
  let pipeline = null;
  /** @type {{ client_id: string, client_secret: string, username: string, password: string } | null} */
  let credentials = null;
  /** @type {NodeJS.ProcessEnv} */
  let serviceEnvironment = {};
  /** @type {string[]} */
  let serviceFlags = [];
  const startService = () =>
    startChild('service', process.execPath, [...serviceFlags, ...nodeFlags('service'), 'dist/main.js'], {
      cwd: root,
      env: serviceEnvironment,
      logFile: join(resultsDir, `service-${stamp}.log`),
    });
  let token;
  let clientId;
  /** The TTS integration's key: its uplinks become records of the bench user, dev_id the device id. */
  let uplinkKey = '';

  if (!cfg.floorOnly) {
    if (cfg.build) {
      log('building (tsc -p tsconfig.build.json)');
      const built = await runCommand(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], {
        cwd: root,
        timeoutMs: 300_000,
      });
      if (built.code !== 0) throw new Error(`build failed:\n${built.stdout}${built.stderr}`);
    } else if (!existsSync(join(root, 'dist/main.js'))) {
      throw new Error('dist/main.js missing: run without --no-build');
    }
    const serviceEnv = childEnv({
      NODE_ENV: 'production',
      PORT: String(cfg.servicePort),
      BASE_URL: baseUrl,
      DATABASE_URL: databaseUrl,
      DB_POOL_SIZE: String(cfg.poolSize),
      OAUTH_PRIVATE_KEY: privatePath,
      OAUTH_PUBLIC_KEY: publicPath,
      ACCESS_TOKEN_TTL: String(Math.max(3600, cfg.timeoutSec * 2)),
      SITE_TIMEZONE: cfg.siteTimezone,
    });
    // The flags `npm start` runs the service with (the heap cap), so the figures are those of a deployment.
    serviceFlags = [...startScriptNodeFlags(), ...(process.env.BENCH_SERVICE_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean)];
    serviceEnvironment = serviceEnv;
    log(`starting the service on ${serviceUrl} (NODE_ENV=production${serviceFlags.length ? `, node ${serviceFlags.join(' ')}` : ''})`);
    service = startService();
    await waitForHttp(`${serviceUrl}/health/ready`, service, 90_000);
    const client = await cli(['client:create', '--label', 'bench'], serviceEnv);
    const username = `bench-${randomBytes(3).toString('hex')}`;
    // Hex: a password starting with '-' would read as an option on the command line.
    const password = randomBytes(12).toString('hex');
    await cli(['user:create', '--username', username, '--password', password], serviceEnv);
    credentials = { client_id: client.client_id, client_secret: client.client_secret, username, password };
    uplinkKey = (await cli(['integration:create', '--user', username, '--network', 'tts', '--dev-id', 'name'], serviceEnv)).api_key;
    clientId = client.client_id;
    token = (await passwordGrant(serviceUrl, credentials)).access_token;
    log(`client ${clientId}, user ${username}, token obtained (${token.length} chars)`);
  } else {
    await db.query(FLOOR_ONLY_SCHEMA);
    clientId = 'floor-only-client';
    const now = Math.floor(Date.now() / 1000);
    token = await new SignJWT({ scope: 'sensor_record' })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
      .setIssuer(baseUrl)
      .setAudience(clientId)
      .setSubject('1')
      .setJti(randomBytes(16).toString('hex'))
      .setIssuedAt(now)
      .setNotBefore(now)
      .setExpirationTime(now + 3600)
      .sign(await importPKCS8(privateKey, 'RS256'));
    log('floor-only: own sensor_report table, locally signed token');
  }

  const floor = startChild('floor', process.execPath, [...nodeFlags('floor'), 'bench/floor-server.js'], {
    cwd: root,
    env: childEnv({
      FLOOR_PORT: String(cfg.floorPort),
      DATABASE_URL: databaseUrl,
      OAUTH_PUBLIC_KEY: publicPath,
      FLOOR_ISSUER: baseUrl,
      FLOOR_CLIENT_ID: clientId,
      FLOOR_POOL_SIZE: String(cfg.poolSize),
      SITE_TIMEZONE: cfg.siteTimezone,
    }),
    logFile: join(resultsDir, `floor-${stamp}.log`),
  });
  await waitForHttp(`${floorUrl}/health`, floor, 30_000);
  log(`floor listening on ${floorUrl}: ${logTail(floor, 1)}`);

  const templates = bodyTemplates();
  if (service) {
    // The pipeline floor answers with as many bytes as the service does.
    const answerSize = await answerBytes(serviceUrl, token, templates);
    pipeline = startChild('pipeline', process.execPath, [...nodeFlags('pipeline'), 'bench/pipeline-floor.js'], {
      cwd: root,
      env: childEnv({
        PIPELINE_FLOOR_PORT: String(cfg.pipelineFloorPort),
        DATABASE_URL: databaseUrl,
        OAUTH_PUBLIC_KEY: publicPath,
        FLOOR_ISSUER: baseUrl,
        FLOOR_POOL_SIZE: String(cfg.poolSize),
        SITE_TIMEZONE: cfg.siteTimezone,
        PIPELINE_FLOOR_ANSWER_BYTES: String(answerSize),
      }),
      logFile: join(resultsDir, `pipeline-floor-${stamp}.log`),
    });
    await waitForHttp(`${pipelineUrl}/health`, pipeline, 60_000);
    log(`pipeline floor listening on ${pipelineUrl}, answering ${answerSize} bytes as the service does`);
  }

  // The service as built from another revision, on a database of its own, driven in the same rounds.
  /** @type {import('./processes.js').BenchChild | null} */
  let baseline = null;
  /** @type {import('mysql2/promise').Connection | null} */
  let baselineDb = null;
  let baselineToken = '';
  const baselineUrl = `http://127.0.0.1:${cfg.baselinePort}`;
  if (cfg.baseline && ingest && service && credentials) {
    log(`building the baseline from ${cfg.baseline}`);
    const dir = await buildBaseline(root, cfg.baseline);
    process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
    const baselineDatabase = `${cfg.database}_baseline`;
    const baselineAdmin = await ensureServer(cfg.databaseServer);
    await recreateDatabase(baselineAdmin, baselineDatabase);
    await baselineAdmin.end();
    baselineDb = await openDatabase(cfg.databaseServer, baselineDatabase);
    const env = {
      ...serviceEnvironment,
      PORT: String(cfg.baselinePort),
      BASE_URL: `http://localhost:${cfg.baselinePort}`,
      DATABASE_URL: `${cfg.databaseServer.replace(/\/+$/, '')}/${baselineDatabase}`,
    };
    baseline = startChild('baseline', process.execPath, [...serviceFlags, 'dist/main.js'], {
      cwd: dir,
      env,
      logFile: join(resultsDir, `baseline-${stamp}.log`),
    });
    await waitForHttp(`${baselineUrl}/health/ready`, baseline, 90_000);
    const client = await cli(['client:create', '--label', 'bench'], env, dir);
    await cli(['user:create', '--username', 'bench-baseline', '--password', credentials.password], env, dir);
    baselineToken = (
      await passwordGrant(baselineUrl, {
        ...credentials,
        client_id: client.client_id,
        client_secret: client.client_secret,
        username: 'bench-baseline',
      })
    ).access_token;
    log(`baseline ${cfg.baseline} listening on ${baselineUrl}`);
  }

  // Peak memory: VmHWM at the end, plus our own VmRSS samples in case a process dies early.
  const memory = {
    service: { readyRssMiB: service ? memoryOf(service.pid).rssMiB : NaN, ingestHwmMiB: NaN, hwmMiB: NaN, rssPeakMiB: 0 },
    pipeline: { readyRssMiB: pipeline ? memoryOf(pipeline.pid).rssMiB : NaN, ingestHwmMiB: NaN, hwmMiB: NaN, rssPeakMiB: 0 },
    floor: { readyRssMiB: memoryOf(floor.pid).rssMiB, ingestHwmMiB: NaN, hwmMiB: NaN, rssPeakMiB: 0 },
    baseline: { readyRssMiB: baseline ? memoryOf(baseline.pid).rssMiB : NaN, ingestHwmMiB: NaN, hwmMiB: NaN, rssPeakMiB: 0 },
  };
  const sample = () => {
    for (const [
      name,
      child,
    ] of /** @type {Array<['service' | 'pipeline' | 'floor' | 'baseline', import('./processes.js').BenchChild | null]>} */ ([
      ['service', service],
      ['pipeline', pipeline],
      ['floor', floor],
      ['baseline', baseline],
    ])) {
      if (!child || child.exitCode !== null) continue;
      const m = memoryOf(child.pid);
      if (Number.isFinite(m.hwmMiB)) memory[name].hwmMiB = m.hwmMiB;
      if (m.rssMiB > memory[name].rssPeakMiB) memory[name].rssPeakMiB = m.rssMiB;
    }
  };
  const sampler = setInterval(sample, 200);

  const uplinks = uplinkTemplates();
  const dbPid = (await serverPid(db)) ?? databaseServerPid();
  /** The process serving each side: the batch scenario is the service's batch route. */
  const children = { service, pipeline, floor, batch: service, baseline };
  /** @type {Array<[keyof typeof children, string]>} */
  const allSides = cfg.floorOnly
    ? [['floor', floorUrl]]
    : [
        ['service', serviceUrl],
        ...(baseline ? /** @type {Array<[keyof typeof children, string]>} */ ([['baseline', baselineUrl]]) : []),
        ['pipeline', pipelineUrl],
        ['floor', floorUrl],
        ...(cfg.batchSize > 0 ? /** @type {Array<[keyof typeof children, string]>} */ ([['batch', serviceUrl]]) : []),
      ];
  const sides = allSides.filter(([side]) => !cfg.only || side === cfg.only);
  const problems = [];
  const runs = [];
  let runIndex = 0;
  /**
   * `route`: `uplinks` loads the TTS webhook instead of the sensor-record route (service only). A run
   * with a `tag` (a scenario of its own, such as submissions during a refresh burst) is reported under
   * it and kept out of the ingestion rounds.
   */
  const oneRun = async (side, url, round, durationSec, route = 'records', tag = '') => {
    runIndex++;
    const prefix = `b${runIndex}${route === 'uplinks' ? 'u' : side[0]}`;
    const child = children[side];
    const batchSize = side === 'batch' ? cfg.batchSize : 0;
    const reportsPerRequest = Math.max(1, batchSize);
    const connections = batchSize > 0 ? cfg.batchConnections : cfg.connections;
    if (!child) throw new Error(`${side} was not started`);
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${side} died:\n${logTail(child)}`);
    const before = await statusCounters(db);
    const cpuBefore = { server: cpuSecondsOf(child.pid), database: cpuSecondsOf(dbPid), load: process.cpuUsage() };
    const run = await ingestRun({
      baseUrl: url,
      token: side === 'baseline' ? baselineToken : token,
      prefix,
      connections,
      durationSec,
      templates: route === 'uplinks' ? uplinks : templates,
      serialBase: runIndex * 10_000_000,
      batchSize,
      ...(route === 'uplinks'
        ? { path: UPLINK_PATH, headers: { Authorization: `Bearer ${uplinkKey}`, 'Content-Type': 'application/json' } }
        : {}),
    });
    const load = process.cpuUsage(cpuBefore.load);
    const cpuMs = (seconds) => Math.round((seconds * 1e6) / Math.max(1, run.answers.size)) / 1000;
    const cpuPerRequestMs = {
      server: cpuMs(cpuSecondsOf(child.pid) - cpuBefore.server),
      database: cpuMs(cpuSecondsOf(dbPid) - cpuBefore.database),
      loadGenerator: cpuMs((load.user + load.system) / 1e6),
    };
    const accounting = await account(run, side === 'baseline' && baselineDb ? baselineDb : db, prefix, connections, reportsPerRequest);
    const perRequest = counterRates(before, await statusCounters(db), accounting.rows);
    const summary = {
      side,
      route,
      round,
      prefix,
      reportsPerRequest,
      ...summarize(run, accounting, reportsPerRequest),
      cpuPerRequestMs,
      databasePerRow: perRequest,
    };
    if (route === 'records' && !tag) runs.push(summary);
    const label = `${side}${route === 'uplinks' ? ' TTS uplinks' : ''}${tag ? ` ${tag}` : ''}`;
    for (const problem of accounting.problems) problems.push(`${label} round ${round}: ${problem}`);
    log(
      `${round === 0 ? 'warm-up' : `round ${round}`} ${label}: ${summary.requestsPerSec.toFixed(0)} req/s` +
        (batchSize > 0 ? ` (${summary.recordsPerSec.toFixed(0)} records/s)` : '') +
        `, p50 ${summary.latencyMs.p50} ms,` +
        ` p99 ${summary.latencyMs.p99} ms, 201s ${summary.acked}, rows ${summary.rows}, non-2xx ${summary.non2xx}` +
        ` | CPU ms/request: server ${cpuPerRequestMs.server}, MariaDB ${cpuPerRequestMs.database}, load ${cpuPerRequestMs.loadGenerator}` +
        ` | per row: ${['Questions', 'Com_select', 'Com_insert', 'Com_update', 'Com_commit', 'Innodb_data_fsyncs'].map((k) => `${k} ${perRequest[k]}`).join(', ')}` +
        (accounting.problems.length ? `  PROBLEMS: ${accounting.problems.join('; ')}` : ''),
    );
    if (run.samples.length) log(`  sample error answers: ${JSON.stringify(run.samples.slice(0, 2))}`);
    return summary;
  };

  if (cfg.warmupSec > 0) for (const [side, url] of sides) await oneRun(side, url, 0, cfg.warmupSec);
  for (let round = 1; round <= cfg.rounds; round++) {
    const order = round % 2 === 1 ? sides : [...sides].reverse();
    for (const [side, url] of order) await oneRun(side, url, round, cfg.durationSec);
  }

  sample();
  for (const side of /** @type {const} */ (['service', 'pipeline', 'floor', 'baseline'])) memory[side].ingestHwmMiB = memory[side].hwmMiB;
  if (baseline) await stop(baseline);
  await baselineDb?.end();

  // The TTS webhook beside the sensor-record route: the same service, user and database.
  let uplinkSummary = null;
  if (!cfg.floorOnly && cfg.uplinkDurationSec > 0 && (!cfg.only || cfg.only === 'service')) {
    if (cfg.warmupSec > 0) await oneRun('service', serviceUrl, 0, cfg.warmupSec, 'uplinks');
    uplinkSummary = await oneRun('service', serviceUrl, 1, cfg.uplinkDurationSec, 'uplinks');
  }

  const tokens = [];
  if (!cfg.floorOnly && cfg.tokenDurationSec > 0) {
    if (!service || !credentials) throw new Error('service was not started');
    const kinds = (process.env.BENCH_TOKEN_KINDS ?? 'refresh,password').split(',');
    // Password grants each from a user of their own, as devices have: the flood limit counts a name's
    // attempts in flight, so 32 concurrent grants for one name would be refused by design.
    const users = kinds.includes('password') ? await benchUsers(cfg.tokenConcurrency, serviceEnvironment) : [];
    for (const kind of kinds) {
      const before = { server: cpuSecondsOf(service.pid), database: cpuSecondsOf(dbPid), counters: await statusCounters(db) };
      const result = await tokenRun({
        baseUrl: serviceUrl,
        kind,
        credentials,
        users,
        concurrency: cfg.tokenConcurrency,
        durationSec: cfg.tokenDurationSec,
      });
      const answered = result.ok + result.failed;
      result.cpuPerGrantMs = {
        server: Math.round(((cpuSecondsOf(service.pid) - before.server) * 1e6) / Math.max(1, answered)) / 1000,
        database: Math.round(((cpuSecondsOf(dbPid) - before.database) * 1e6) / Math.max(1, answered)) / 1000,
      };
      result.databasePerGrant = counterRates(before.counters, await statusCounters(db), answered);
      tokens.push(result);
      log(
        `token ${kind}: ${result.grantsPerSec.toFixed(0)} grants/s, p50 ${result.latencyMs.p50.toFixed(1)} ms, p99 ${result.latencyMs.p99.toFixed(1)} ms, failed ${result.failed}` +
          ` | CPU ms/grant: server ${result.cpuPerGrantMs.server}, MariaDB ${result.cpuPerGrantMs.database} | per grant: Questions ${result.databasePerGrant.Questions}, fsyncs ${result.databasePerGrant.Innodb_data_fsyncs}`,
      );
      if (result.failed > 0)
        problems.push(
          `token ${kind}: ${result.failed} failed grant(s) ${JSON.stringify(result.statusCodes)} e.g. ${JSON.stringify(result.errorSamples[0])}`,
        );
    }
  }

  // Submissions while a refresh burst runs against their rate alone, in alternating runs (alone,
  // during, alone, during): the token endpoint must not starve ingestion.
  /** @type {{ aloneRecordsPerSec: number; duringRecordsPerSec: number; ratio: number; grantsPerSec: number; durationSec: number } | null} */
  let burst = null;
  if (!cfg.floorOnly && cfg.tokenDurationSec > 0 && service && credentials && (!cfg.only || cfg.only === 'service')) {
    const alone = [];
    const during = [];
    const grants = [];
    for (let round = 1; round <= 2; round++) {
      alone.push((await oneRun('service', serviceUrl, round, cfg.tokenDurationSec, 'records', 'alone')).requestsPerSec);
      const chains = await refreshChains(serviceUrl, credentials, cfg.tokenConcurrency);
      const [submissions, refreshes] = await Promise.all([
        oneRun('service', serviceUrl, round, cfg.tokenDurationSec, 'records', 'during a refresh burst'),
        tokenRun({
          baseUrl: serviceUrl,
          kind: 'refresh',
          credentials,
          concurrency: cfg.tokenConcurrency,
          durationSec: cfg.tokenDurationSec,
          chains,
        }),
      ]);
      during.push(submissions.requestsPerSec);
      grants.push(refreshes.grantsPerSec);
      if (refreshes.failed > 0)
        problems.push(`refresh burst round ${round}: ${refreshes.failed} failed grant(s) ${JSON.stringify(refreshes.statusCodes)}`);
      log(
        `refresh burst round ${round}: ${refreshes.grantsPerSec.toFixed(0)} grants/s beside ${submissions.requestsPerSec.toFixed(0)} submissions/s`,
      );
    }
    const aloneRate = median(alone);
    const duringRate = median(during);
    burst = {
      aloneRecordsPerSec: aloneRate,
      duringRecordsPerSec: duringRate,
      ratio: duringRate / aloneRate,
      grantsPerSec: median(grants),
      durationSec: cfg.tokenDurationSec,
    };
  }

  clearInterval(sampler);
  sample();
  // After everything else, while the service is idle: the ceiling the grant rate is read against.
  const signing = cfg.signingDurationSec > 0 ? await signingRate(privateKey, cfg.signingDurationSec) : null;
  if (signing) {
    log(
      `RSA-2048 signatures/s: one thread ${signing.oneThread.toFixed(0)}, thread pool (${signing.threadPoolSize} threads) ${signing.threadPool.toFixed(0)}`,
    );
  }

  // The read side on a freshly started service, so that its memory figures are its own.
  /** @type {(Record<string, unknown> & { table: string }) | null} */
  let readSide = null;
  if (cfg.scenarios.has('read') && !cfg.floorOnly && service && credentials) {
    const readerPassword = randomBytes(12).toString('hex');
    const reader = await cli(['user:create', '--username', 'bench-reader', '--password', readerPassword], serviceEnvironment);
    await stop(service);
    log(`seeding ${cfg.records} records over ${cfg.sensors} sensors for uid ${reader.uid}`);
    const seedSeconds = await seedRecords(db, { uid: reader.uid, records: cfg.records, sensors: cfg.sensors, log });
    log('filling the sensor table by the migration (revert, then run again)');
    const fillStarted = Date.now();
    for (const command of ['migration:revert', 'migration:run']) {
      const ran = await runCommand(
        process.execPath,
        ['node_modules/tsx/dist/cli.mjs', 'node_modules/typeorm/cli.js', command, '-d', 'ormconfig.ts'],
        { cwd: root, env: serviceEnvironment, timeoutMs: 1_800_000 },
      );
      if (ran.code !== 0) throw new Error(`${command} failed:\n${ran.stdout}${ran.stderr}`);
    }
    const fillSeconds = (Date.now() - fillStarted) / 1000;
    service = startService();
    await waitForHttp(`${serviceUrl}/health/ready`, service, 90_000);
    const readerToken = (await passwordGrant(serviceUrl, { ...credentials, username: 'bench-reader', password: readerPassword }))
      .access_token;
    const result = await readScenarios({ baseUrl: serviceUrl, token: readerToken, pid: service.pid, log });
    const plans = await explainPlans(db, reader.uid);
    const measuredReadSide = { records: cfg.records, sensors: cfg.sensors, seedSeconds, fillSeconds, result, plans };
    readSide = { ...measuredReadSide, table: readSideReport(measuredReadSide) };
  }
  const measured = (side) => runs.filter((r) => r.side === side && r.round > 0);
  const rounds = {
    service: measured('service'),
    pipeline: measured('pipeline'),
    floor: measured('floor'),
    batch: measured('batch'),
    baseline: measured('baseline'),
  };
  const summaries = {
    service: sideSummary(rounds.service),
    pipeline: sideSummary(rounds.pipeline),
    floor: sideSummary(rounds.floor),
    batch: sideSummary(rounds.batch),
    baseline: sideSummary(rounds.baseline),
  };
  const machine = `${os.cpus().length} CPUs ${os.cpus()[0]?.model?.trim() ?? ''}, node ${process.version}, MariaDB ${version}`;
  const tables = [];
  if (ingest)
    tables.push(markdownReport({ config: cfg, summaries, rounds, memory, tokens, burst, uplinks: uplinkSummary, signing, machine }));
  if (rounds.baseline.length > 0) tables.push(baselineReport({ revision: cfg.baseline, summaries, rounds, memory }));
  if (readSide) tables.push(`${readSide.table}\n\n(${machine})`);
  const table = tables.join('\n\n');

  const resultFile = join(resultsDir, `bench-${stamp}.json`);
  writeFileSync(
    resultFile,
    `${JSON.stringify(
      {
        date: new Date().toISOString(),
        machine,
        config: { ...cfg, scenarios: [...cfg.scenarios] },
        ...summaries,
        ratios: {
          serviceToPipelineFloor: summaries.service.requestsPerSec / summaries.pipeline.requestsPerSec,
          serviceToBareFloor: summaries.service.requestsPerSec / summaries.floor.requestsPerSec,
          pipelineFloorToBareFloor: summaries.pipeline.requestsPerSec / summaries.floor.requestsPerSec,
          batchRecordsToBareFloor: summaries.batch.recordsPerSec / summaries.floor.requestsPerSec,
        },
        memory,
        uplinks: uplinkSummary,
        tokens,
        burst,
        signing,
        runs,
        readSide,
        problems,
        table,
      },
      null,
      2,
    )}\n`,
  );
  await db.end();
  if (service) await stop(service);
  if (pipeline) await stop(pipeline);
  await stop(floor);

  process.stdout.write(`\n${table}\n\nResults: ${resultFile}\n`);
  if (cfg.profile) process.stdout.write(`CPU profiles: ${profileDir}\n`);
  if (problems.length > 0) {
    process.stdout.write(`\nFAILED: ${problems.length} problem(s) under valid load:\n${problems.map((p) => `- ${p}`).join('\n')}\n`);
    return 1;
  }
  return 0;
}

main().then(
  (code) => {
    killAll();
    process.exit(code);
  },
  (error) => {
    log(`harness failure: ${error.stack ?? error}`);
    killAll();
    process.exit(2);
  },
);

/** `count` users for the password grants, created with the admin command line a few at a time (Argon2 is slow on purpose). */
async function benchUsers(count, env) {
  const users = [];
  const tag = randomBytes(3).toString('hex');
  for (let first = 0; first < count; first += 4) {
    const batch = Array.from({ length: Math.min(4, count - first) }, (_, offset) => {
      const user = { username: `bench-${tag}-${first + offset}`, password: randomBytes(12).toString('hex') };
      return cli(['user:create', '--username', user.username, '--password', user.password], env).then(() => user);
    });
    users.push(...(await Promise.all(batch)));
  }
  log(`${users.length} users for the password grants`);
  return users;
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

/** The node flags of the `start` script (`node <flags> dist/main.js`). */
function startScriptNodeFlags() {
  const start = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts.start;
  const flags = /^node\s+(.*?)\s*dist\/main\.js$/.exec(start);
  if (!flags) throw new Error(`package.json "start" is not "node [flags] dist/main.js": ${start}`);
  return (flags[1] ?? '').split(/\s+/).filter(Boolean);
}
