// @ts-check
// `npm run bench`: ingestion benchmark of the service against the bare-stack floor, plus the token
// endpoint (what it measures: the Benchmark section of the README). Options (flags or
// environment), all optional:
//
//   --rounds N            BENCH_ROUNDS            alternating rounds per side (3)
//   --duration S          BENCH_DURATION          seconds per round and side (10)
//   --connections C       BENCH_CONNECTIONS       concurrent connections (32)
//   --warmup S            BENCH_WARMUP            warm-up seconds per side, not in the figures (3)
//   --token-duration S    BENCH_TOKEN_DURATION    seconds per token grant kind; 0 skips (5)
//   --token-concurrency C BENCH_TOKEN_CONCURRENCY concurrent token clients (= connections)
//   --no-build            BENCH_BUILD=0           use dist/ as it is
//   --profile             BENCH_PROFILE=1         CPU profiles of service and floor into bench/results/
//   --floor-only                                  harness self-test: floor alone on its own table
//   --scenarios LIST      BENCH_SCENARIOS         what to run, of "ingest,read" (both)
//   --records N           BENCH_RECORDS           read side: records in the seeded table (1000000)
//   --sensors N           BENCH_SENSORS           read side: devices they come from (10000)
//   --baseline REV        BENCH_BASELINE          ingestion: also drive the service as built from the git
//                                                 revision REV (e.g. the commit before a change), alternating
//   BENCH_TOKEN_KINDS          token grants measured, in order ("refresh,password")
//   BENCH_SERVICE_NODE_FLAGS   node flags for the service after those of `npm start` (a repeated flag
//                              overrides), e.g. "--max-semi-space-size=32"
//   BENCH_DATABASE_SERVER (mysql://root@127.0.0.1:3306), BENCH_DATABASE (sensor_records_bench),
//   BENCH_SERVICE_PORT (3900), BENCH_FLOOR_PORT (3901), BENCH_DB_POOL_SIZE (10), BENCH_TIMEOUT (600 s)
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
import { account, ingestRun, summarize } from './ingest-load.js';
import { cpuSecondsOf, databaseServerPid, killAll, logTail, memoryOf, runCommand, startChild, stop, waitForHttp } from './processes.js';
import { baselineReport, markdownReport, sideSummary } from './report.js';
import { passwordGrant, tokenRun } from './token-load.js';
import { buildBaseline } from './baseline.js';
import { explainPlans, readScenarios, readSideReport, seedRecords } from './read-side.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
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
    tokenDurationSec: value('token-duration', 'BENCH_TOKEN_DURATION', 5),
    tokenConcurrency: value('token-concurrency', 'BENCH_TOKEN_CONCURRENCY', connections),
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
    poolSize: value('pool-size', 'BENCH_DB_POOL_SIZE', 10),
    timeoutSec: value('timeout', 'BENCH_TIMEOUT', 600),
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
  if (!ingest) Object.assign(cfg, { rounds: 0, warmupSec: 0, tokenDurationSec: 0 });
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
  const profileDir = join(resultsDir, `profiles-${stamp}`);
  const nodeFlags = (name) =>
    cfg.profile
      ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=${name}.cpuprofile`, '--import', './bench/exit-on-sigterm.js']
      : [];
  /** @type {import('./processes.js').BenchChild | null} */
  let service = null;
  /** @type {Record<string, string>} */
  let credentials = {};
  let token;
  let clientId;
  /** @type {NodeJS.ProcessEnv} */
  let serviceEnv = {};
  /** @type {string[]} */
  let serviceFlags = [];
  const startService = () =>
    startChild('service', process.execPath, [...serviceFlags, ...nodeFlags('service'), 'dist/main.js'], {
      cwd: root,
      env: serviceEnv,
      logFile: join(resultsDir, `service-${stamp}.log`),
    });

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
    serviceEnv = childEnv({
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
    log(`starting the service on ${serviceUrl} (NODE_ENV=production${serviceFlags.length ? `, node ${serviceFlags.join(' ')}` : ''})`);
    service = startService();
    await waitForHttp(`${serviceUrl}/health/ready`, service, 90_000);
    const client = await cli(['client:create', '--label', 'bench'], serviceEnv);
    const username = `bench-${randomBytes(3).toString('hex')}`;
    // Hex: a password starting with '-' would read as an option on the command line.
    const password = randomBytes(12).toString('hex');
    await cli(['user:create', '--username', username, '--password', password], serviceEnv);
    credentials = { client_id: client.client_id, client_secret: client.client_secret, username, password };
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

  // The service as built from another revision, on a database of its own.
  /** @type {import('./processes.js').BenchChild | null} */
  let baseline = null;
  let baselineDb = null;
  let baselineToken;
  const baselineUrl = `http://127.0.0.1:${cfg.servicePort + 2}`;
  if (cfg.baseline && ingest && !cfg.floorOnly) {
    log(`building the baseline from ${cfg.baseline}`);
    const dir = await buildBaseline(root, cfg.baseline);
    const baselineDatabase = `${cfg.database}_baseline`;
    const baselineAdmin = await ensureServer(cfg.databaseServer);
    await recreateDatabase(baselineAdmin, baselineDatabase);
    await baselineAdmin.end();
    baselineDb = await openDatabase(cfg.databaseServer, baselineDatabase);
    const env = {
      ...serviceEnv,
      PORT: String(cfg.servicePort + 2),
      BASE_URL: `http://localhost:${cfg.servicePort + 2}`,
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
    floor: { readyRssMiB: memoryOf(floor.pid).rssMiB, ingestHwmMiB: NaN, hwmMiB: NaN, rssPeakMiB: 0 },
  };
  const sample = () => {
    for (const [name, child] of /** @type {Array<['service' | 'floor', import('./processes.js').BenchChild | null]>} */ ([
      ['service', service],
      ['floor', floor],
    ])) {
      if (!child || child.exitCode !== null) continue;
      const m = memoryOf(child.pid);
      if (Number.isFinite(m.hwmMiB)) memory[name].hwmMiB = m.hwmMiB;
      if (m.rssMiB > memory[name].rssPeakMiB) memory[name].rssPeakMiB = m.rssMiB;
    }
  };
  const sampler = setInterval(sample, 200);

  const templates = bodyTemplates();
  const dbPid = databaseServerPid();
  const sides = (
    cfg.floorOnly ? [['floor', floorUrl]] : [['service', serviceUrl], ...(baseline ? [['baseline', baselineUrl]] : []), ['floor', floorUrl]]
  ).filter(([side]) => !cfg.only || side === cfg.only);
  const problems = [];
  const runs = [];
  let runIndex = 0;
  const oneRun = async (side, url, round, durationSec) => {
    runIndex++;
    const prefix = `b${runIndex}${side[0]}`;
    const child = side === 'service' ? service : side === 'baseline' ? baseline : floor;
    if (!child) throw new Error(`${side} was not started`);
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${side} died:\n${logTail(child)}`);
    const before = await statusCounters(db);
    const cpuBefore = { server: cpuSecondsOf(child.pid), database: cpuSecondsOf(dbPid), load: process.cpuUsage() };
    const run = await ingestRun({
      baseUrl: url,
      token: side === 'baseline' ? baselineToken : token,
      prefix,
      connections: cfg.connections,
      durationSec,
      templates,
      serialBase: runIndex * 10_000_000,
    });
    const load = process.cpuUsage(cpuBefore.load);
    const cpuMs = (seconds) => Math.round((seconds * 1e6) / Math.max(1, run.answers.size)) / 1000;
    const cpuPerRequestMs = {
      server: cpuMs(cpuSecondsOf(child.pid) - cpuBefore.server),
      database: cpuMs(cpuSecondsOf(dbPid) - cpuBefore.database),
      loadGenerator: cpuMs((load.user + load.system) / 1e6),
    };
    const accounting = await account(run, side === 'baseline' && baselineDb ? baselineDb : db, prefix, cfg.connections);
    const perRequest = counterRates(before, await statusCounters(db), accounting.rows);
    const summary = { side, round, prefix, ...summarize(run, accounting), cpuPerRequestMs, databasePerRow: perRequest };
    runs.push(summary);
    for (const problem of accounting.problems) problems.push(`${side} round ${round}: ${problem}`);
    log(
      `${round === 0 ? 'warm-up' : `round ${round}`} ${side}: ${summary.requestsPerSec.toFixed(0)} req/s, p50 ${summary.latencyMs.p50} ms,` +
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
  for (const side of ['service', 'floor']) memory[side].ingestHwmMiB = memory[side].hwmMiB;

  const tokens = [];
  if (!cfg.floorOnly && cfg.tokenDurationSec > 0) {
    if (!service) throw new Error('service was not started');
    for (const kind of (process.env.BENCH_TOKEN_KINDS ?? 'refresh,password').split(',')) {
      const before = { server: cpuSecondsOf(service.pid), database: cpuSecondsOf(dbPid), counters: await statusCounters(db) };
      const result = await tokenRun({
        baseUrl: serviceUrl,
        kind,
        credentials,
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
  if (baseline) await stop(baseline);
  await baselineDb?.end();

  // The read side on a freshly started service, so that its memory figures are its own.
  /** @type {(Record<string, unknown> & { table: string }) | null} */
  let readSide = null;
  if (cfg.scenarios.has('read') && !cfg.floorOnly && service) {
    const readerPassword = randomBytes(12).toString('hex');
    const reader = await cli(['user:create', '--username', 'bench-reader', '--password', readerPassword], serviceEnv);
    await stop(service);
    log(`seeding ${cfg.records} records over ${cfg.sensors} sensors for uid ${reader.uid}`);
    const seedSeconds = await seedRecords(db, { uid: reader.uid, records: cfg.records, sensors: cfg.sensors, log });
    log('filling the sensor table by the migration (revert, then run again)');
    const fillStarted = Date.now();
    for (const command of ['migration:revert', 'migration:run']) {
      const ran = await runCommand(
        process.execPath,
        ['node_modules/tsx/dist/cli.mjs', 'node_modules/typeorm/cli.js', command, '-d', 'ormconfig.ts'],
        {
          cwd: root,
          env: serviceEnv,
          timeoutMs: 1_800_000,
        },
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
  const serviceRounds = measured('service');
  const floorRounds = measured('floor');
  const floorSummary = sideSummary(floorRounds);
  const serviceSummary = sideSummary(serviceRounds);
  const machine = `${os.cpus().length} CPUs ${os.cpus()[0]?.model?.trim() ?? ''}, node ${process.version}, MariaDB ${version}`;
  const baselineRounds = measured('baseline');
  const tables = [];
  if (ingest) {
    tables.push(
      markdownReport({ config: cfg, service: serviceSummary, floor: floorSummary, serviceRounds, floorRounds, memory, tokens, machine }),
    );
  }
  if (baselineRounds.length > 0) {
    tables.push(
      baselineReport({
        revision: cfg.baseline,
        service: serviceSummary,
        baseline: sideSummary(baselineRounds),
        serviceRounds,
        baselineRounds,
      }),
    );
  }
  if (readSide) tables.push(`${readSide.table}\n\n(${machine})`);
  const table = tables.join('\n\n');

  const resultFile = join(resultsDir, `bench-${stamp}.json`);
  writeFileSync(
    resultFile,
    `${JSON.stringify({ date: new Date().toISOString(), machine, config: cfg, service: serviceSummary, floor: floorSummary, ratio: serviceSummary.requestsPerSec / floorSummary.requestsPerSec, memory, tokens, runs, readSide, problems, table }, null, 2)}\n`,
  );
  await db.end();
  if (service) await stop(service);
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

/** The node flags of the `start` script (`node <flags> dist/main.js`). */
function startScriptNodeFlags() {
  const start = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts.start;
  const flags = /^node\s+(.*?)\s*dist\/main\.js$/.exec(start);
  if (!flags) throw new Error(`package.json "start" is not "node [flags] dist/main.js": ${start}`);
  return (flags[1] ?? '').split(/\s+/).filter(Boolean);
}
