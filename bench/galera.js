// @ts-check
// `npm run bench:galera`: ingestion by three instances of the built service, once each on its own node
// of the three-node Galera test cluster (scripts/galera-cluster.sh, started if it is not up) and once
// all three on the one MariaDB server, under the same load split evenly over the three, with every
// acknowledged record checked against the rows and the write conflicts retried counted
// (db_write_conflict_retries_total). Environment, all optional: BENCH_DURATION (seconds per side, 10),
// BENCH_CONNECTIONS (in all, 30), BENCH_DATABASE_SERVER (mysql://root@127.0.0.1:3306),
// BENCH_GALERA_PORT (first of three service ports, 3910), BENCH_BUILD=0 (use dist/ as it is).
// Exit status: 0 clean; 1 a record lost or extra, or an answer other than 201.
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bodyTemplates } from './bodies.js';
import { ensureServer, openDatabase, recreateDatabase } from './database.js';
import { account, ingestRun, summarize } from './ingest-load.js';
import { killAll, startChild, stop, waitForHttp } from './processes.js';
import { passwordGrant } from './token-load.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const durationSec = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 30);
const singleServer = process.env.BENCH_DATABASE_SERVER ?? 'mysql://root@127.0.0.1:3306';
const firstPort = Number(process.env.BENCH_GALERA_PORT ?? 3910);
const DATABASE = 'sensor_records_bench_galera';

/** `mysql://user@host:port` of each Galera node, from the cluster script. */
function galeraServers() {
  execFileSync('bash', [join(root, 'scripts/galera-cluster.sh'), 'start'], { stdio: 'inherit' });
  const line = execFileSync('bash', [join(root, 'scripts/galera-cluster.sh'), 'env', DATABASE], { encoding: 'utf8' }).trim();
  return line
    .replace(/^GALERA_URLS=/, '')
    .split(',')
    .map((url) => url.replace(/\/[^/]*$/, ''));
}

function cli(args, env) {
  return JSON.parse(execFileSync(process.execPath, [join(root, 'dist/cli.js'), ...args], { env, encoding: 'utf8' }).trim());
}

/** Three instances, instance i on servers[i], under `connections` split over them; the figures and the accounting. */
async function side(label, servers, keys, work) {
  const admin = await ensureServer(servers[0]);
  await recreateDatabase(admin, DATABASE);
  await admin.end();
  // One BASE_URL for the three, as behind a load balancer: it is the tokens' issuer.
  const baseEnv = {
    BASE_URL: 'http://sensor-records.bench',
    ...process.env,
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    OAUTH_PRIVATE_KEY: keys.privateKey,
    OAUTH_PUBLIC_KEY: keys.publicKey,
  };
  const urls = servers.map((server) => `${server}/${DATABASE}`);
  const client = cli(['client:create', '--label', 'bench'], { ...baseEnv, DATABASE_URL: urls[0] });
  cli(['user:create', '--username', 'bench', '--password', 'bench passphrase long'], { ...baseEnv, DATABASE_URL: urls[0] });
  const instances = [];
  for (const [i, url] of urls.entries()) {
    const port = firstPort + i;
    const child = startChild(`${label} instance ${i + 1}`, process.execPath, [join(root, 'dist/main.js')], {
      env: { ...baseEnv, DATABASE_URL: url, PORT: String(port) },
      cwd: root,
      logFile: join(work, `${label}-${i + 1}.log`),
    });
    await waitForHttp(`http://127.0.0.1:${port}/health/ready`, child);
    instances.push({ child, baseUrl: `http://127.0.0.1:${port}` });
  }
  const credentials = {
    client_id: client.client_id,
    client_secret: client.client_secret,
    username: 'bench',
    password: 'bench passphrase long',
  };
  const { access_token: token } = await passwordGrant(urlOf(instances, 0), credentials);
  const templates = bodyTemplates();
  const per = Math.max(1, Math.round(connections / instances.length));
  const retriesBefore = await conflictRetries(instances);
  const runs = await Promise.all(
    instances.map((instance, i) =>
      ingestRun({
        baseUrl: instance.baseUrl,
        token,
        prefix: `${label}${i}`,
        connections: per,
        durationSec,
        templates,
        serialBase: i * 10_000_000,
      }),
    ),
  );
  const retries = (await conflictRetries(instances)) - retriesBefore;
  const db = await openDatabase(servers[0], DATABASE);
  // Reads on a node wait for what the cluster has committed (no effect on the single server).
  await db.query('SET SESSION wsrep_sync_wait = 1').catch(() => undefined);
  const summaries = [];
  for (const [i, run] of runs.entries()) summaries.push(summarize(run, await account(run, db, `${label}${i}`, per)));
  await db.end();
  for (const instance of instances) await stop(instance.child);
  const acked = summaries.reduce((sum, s) => sum + s.acked, 0);
  return {
    label,
    recordsPerSec: summaries.reduce((sum, s) => sum + s.recordsPerSec, 0),
    p50: Math.max(...summaries.map((s) => s.latencyMs.p50)),
    p99: Math.max(...summaries.map((s) => s.latencyMs.p99)),
    acked,
    retries,
    retriesPerThousand: acked === 0 ? 0 : (retries * 1000) / acked,
    problems: summaries.flatMap((s) => [
      ...s.problems,
      ...s.errorSamples.slice(0, 1).map((sample) => `e.g. ${sample.status} ${sample.body}`),
    ]),
  };
}

function urlOf(instances, index) {
  const instance = instances[index];
  if (!instance) throw new Error(`no instance ${index}`);
  return instance.baseUrl;
}

async function conflictRetries(instances) {
  let total = 0;
  for (const { baseUrl } of instances) {
    const text = await (await fetch(`${baseUrl}/metrics`)).text();
    total += Number(/^db_write_conflict_retries_total (\d+)$/m.exec(text)?.[1] ?? 0);
  }
  return total;
}

async function main() {
  if (process.env.BENCH_BUILD !== '0') execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  const work = mkdtempSync(join(os.tmpdir(), 'sensor-records-bench-galera-'));
  const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keys = { privateKey: join(work, 'private.key'), publicKey: join(work, 'public.key') };
  writeFileSync(keys.privateKey, pair.privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  writeFileSync(keys.publicKey, pair.publicKey.export({ type: 'spki', format: 'pem' }));
  try {
    const results = [
      await side('single', [singleServer, singleServer, singleServer], keys, work),
      await side('galera', galeraServers(), keys, work),
    ];
    console.log(`\n${connections} connections split over three instances, ${durationSec} s, ${os.cpus().length} cores\n`);
    console.log('| database | records/s | p50 ms | p99 ms | acknowledged | conflicts retried | per 1,000 records |');
    console.log('|---|---|---|---|---|---|---|');
    for (const r of results) {
      console.log(
        `| ${r.label} | ${r.recordsPerSec.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.acked} | ${r.retries} | ${r.retriesPerThousand.toFixed(1)} |`,
      );
    }
    const problems = results.flatMap((r) => r.problems.map((problem) => `${r.label}: ${problem}`));
    for (const problem of problems) console.error(`PROBLEM ${problem}`);
    process.exitCode = problems.length > 0 ? 1 : 0;
  } finally {
    killAll();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
