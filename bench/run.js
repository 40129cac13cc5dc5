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
//   --batch-connections C BENCH_BATCH_CONNECTIONS concurrent batch senders (8: relays are fewer than devices)
//   --signing-duration S  BENCH_SIGNING_DURATION  seconds per RSA signing measurement; 0 skips (2)
//   --no-build            BENCH_BUILD=0           use dist/ as it is
//   --profile             BENCH_PROFILE=1         CPU profiles of service and floor into bench/results/
//   --floor-only                                  harness self-test: bare floor alone on its own table
//   --only SIDE                                   load one side only (service, pipeline, floor, batch)
//   BENCH_TOKEN_KINDS          token grants measured, in order ("refresh,password")
//   BENCH_SERVICE_NODE_FLAGS   node flags for the service after those of `npm start` (a repeated flag
//                              overrides), e.g. "--max-semi-space-size=32"
//   BENCH_DATABASE_SERVER (mysql://root@127.0.0.1:3306), BENCH_DATABASE (sensor_records_bench),
//   BENCH_SERVICE_PORT (3900), BENCH_FLOOR_PORT (3901), BENCH_PIPELINE_FLOOR_PORT (3902),
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
import { markdownReport, sideSummary } from './report.js';
import { signingRate } from './signing-rate.js';
import { passwordGrant, tokenRun } from './token-load.js';
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
    batchConnections: value('batch-connections', 'BENCH_BATCH_CONNECTIONS', 8),
    signingDurationSec: value('signing-duration', 'BENCH_SIGNING_DURATION', 2),
    build: !flag('no-build') && env.BENCH_BUILD !== '0',
    profile: flag('profile') || env.BENCH_PROFILE === '1',
    floorOnly: flag('floor-only'),
    // Profiling aid: load only one side (`--only service`); the ratio is then not computed.
    only: (() => {
      const i = argv.findIndex((a) => a === '--only' || a.startsWith('--only='));
      return i < 0 ? null : argv[i].includes('=') ? argv[i].split('=')[1] : argv[i + 1];
    })(),
    databaseServer: env.BENCH_DATABASE_SERVER ?? 'mysql://root@127.0.0.1:3306',
    database: env.BENCH_DATABASE ?? 'sensor_records_bench',
    servicePort: value('service-port', 'BENCH_SERVICE_PORT', 3900),
    floorPort: value('floor-port', 'BENCH_FLOOR_PORT', 3901),
    pipelineFloorPort: value('pipeline-floor-port', 'BENCH_PIPELINE_FLOOR_PORT', 3902),
    poolSize: value('pool-size', 'BENCH_DB_POOL_SIZE', 10),
    timeoutSec: value('timeout', 'BENCH_TIMEOUT', 900),
    siteTimezone: env.SITE_TIMEZONE ?? 'Pacific/Auckland',
  };
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

async function cli(args, env) {
  const { code, stdout, stderr } = await runCommand(process.execPath, ['dist/cli.js', ...args], { cwd: root, env, timeoutMs: 60_000 });
  if (code !== 0) throw new Error(`node dist/cli.js ${args[0]} failed (${code}): ${stderr.trim() || stdout.trim()}`);
  const line = stdout.trim().split('\n').at(-1);
  return JSON.parse(line);
}

async function main() {
  const cfg = options(process.argv.slice(2), process.env);
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
  let credentials = null;
  /** @type {NodeJS.ProcessEnv} */
  let serviceEnvironment = {};
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
    const serviceFlags = [...startScriptNodeFlags(), ...(process.env.BENCH_SERVICE_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean)];
    log(`starting the service on ${serviceUrl} (NODE_ENV=production${serviceFlags.length ? `, node ${serviceFlags.join(' ')}` : ''})`);
    service = startChild('service', process.execPath, [...serviceFlags, ...nodeFlags('service'), 'dist/main.js'], {
      cwd: root,
      env: serviceEnv,
      logFile: join(resultsDir, `service-${stamp}.log`),
    });
    await waitForHttp(`${serviceUrl}/health/ready`, service, 90_000);
    const client = await cli(['client:create', '--label', 'bench'], serviceEnv);
    const username = `bench-${randomBytes(3).toString('hex')}`;
    // Hex: a password starting with '-' would read as an option on the command line.
    const password = randomBytes(12).toString('hex');
    await cli(['user:create', '--username', username, '--password', password], serviceEnv);
    credentials = { client_id: client.client_id, client_secret: client.client_secret, username, password };
    serviceEnvironment = serviceEnv;
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

  // Peak memory: VmHWM at the end, plus our own VmRSS samples in case a process dies early.
  const memory = {
    service: { readyRssMiB: service ? memoryOf(service.pid).rssMiB : NaN, ingestHwmMiB: NaN, hwmMiB: NaN, rssPeakMiB: 0 },
    pipeline: { readyRssMiB: pipeline ? memoryOf(pipeline.pid).rssMiB : NaN, ingestHwmMiB: NaN, hwmMiB: NaN, rssPeakMiB: 0 },
    floor: { readyRssMiB: memoryOf(floor.pid).rssMiB, ingestHwmMiB: NaN, hwmMiB: NaN, rssPeakMiB: 0 },
  };
  const sample = () => {
    for (const [name, child] of /** @type {Array<['service' | 'pipeline' | 'floor', import('./processes.js').BenchChild | null]>} */ ([
      ['service', service],
      ['pipeline', pipeline],
      ['floor', floor],
    ])) {
      if (!child || child.exitCode !== null) continue;
      const m = memoryOf(child.pid);
      if (Number.isFinite(m.hwmMiB)) memory[name].hwmMiB = m.hwmMiB;
      if (m.rssMiB > memory[name].rssPeakMiB) memory[name].rssPeakMiB = m.rssMiB;
    }
  };
  const sampler = setInterval(sample, 200);

  const uplinks = uplinkTemplates();
  const dbPid = databaseServerPid();
  /** The process serving each side: the batch scenario is the service's batch route. */
  const children = { service, pipeline, floor, batch: service };
  /** @type {Array<[keyof typeof children, string]>} */
  const allSides = cfg.floorOnly
    ? [['floor', floorUrl]]
    : [
        ['service', serviceUrl],
        ['pipeline', pipelineUrl],
        ['floor', floorUrl],
        ...(cfg.batchSize > 0 ? /** @type {Array<[keyof typeof children, string]>} */ ([['batch', serviceUrl]]) : []),
      ];
  const sides = allSides.filter(([side]) => !cfg.only || side === cfg.only);
  const problems = [];
  const runs = [];
  let runIndex = 0;
  /** `route`: `uplinks` loads the TTS webhook instead of the sensor-record route (service only). */
  const oneRun = async (side, url, round, durationSec, route = 'records') => {
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
      token,
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
    const accounting = await account(run, db, prefix, connections, reportsPerRequest);
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
    if (route === 'records') runs.push(summary);
    const label = `${side}${route === 'uplinks' ? ' TTS uplinks' : ''}`;
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
  for (const side of /** @type {const} */ (['service', 'pipeline', 'floor'])) memory[side].ingestHwmMiB = memory[side].hwmMiB;

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

  clearInterval(sampler);
  sample();
  // After everything else, while the service is idle: the ceiling the grant rate is read against.
  const signing = cfg.signingDurationSec > 0 ? await signingRate(privateKey, cfg.signingDurationSec) : null;
  if (signing) {
    log(
      `RSA-2048 signatures/s: one thread ${signing.oneThread.toFixed(0)}, thread pool (${signing.threadPoolSize} threads) ${signing.threadPool.toFixed(0)}`,
    );
  }
  const measured = (side) => runs.filter((r) => r.side === side && r.round > 0);
  const rounds = { service: measured('service'), pipeline: measured('pipeline'), floor: measured('floor'), batch: measured('batch') };
  const summaries = {
    service: sideSummary(rounds.service),
    pipeline: sideSummary(rounds.pipeline),
    floor: sideSummary(rounds.floor),
    batch: sideSummary(rounds.batch),
  };
  const machine = `${os.cpus().length} CPUs ${os.cpus()[0]?.model?.trim() ?? ''}, node ${process.version}, MariaDB ${version}`;
  const table = markdownReport({ config: cfg, summaries, rounds, memory, tokens, uplinks: uplinkSummary, signing, machine });

  const resultFile = join(resultsDir, `bench-${stamp}.json`);
  writeFileSync(
    resultFile,
    `${JSON.stringify(
      {
        date: new Date().toISOString(),
        machine,
        config: cfg,
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
        signing,
        runs,
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

/** The node flags of the `start` script (`node <flags> dist/main.js`). */
function startScriptNodeFlags() {
  const start = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts.start;
  const flags = /^node\s+(.*?)\s*dist\/main\.js$/.exec(start);
  if (!flags) throw new Error(`package.json "start" is not "node [flags] dist/main.js": ${start}`);
  return (flags[1] ?? '').split(/\s+/).filter(Boolean);
}
