// @ts-check
// The token endpoint: refresh and password grants per second (password grants each from a user of its
// own, as devices have: the flood limit counts a name's attempts in flight), CPU and statements per
// grant, read against the machine's signing rate when the signing scenario ran; with `--baseline`,
// each kind on the baseline right after this tree's.
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { counterRates, statusCounters } from '../database.js';
import { cpuSecondsOf } from '../processes.js';
import { tokenTable } from '../report.js';
import { refreshChains, tokenRun } from '../token-load.js';

/**
 * `count` users for the password grants, created with the admin command line a few at a time (Argon2 is slow on purpose).
 * @param {import('../stand.js').Service} service
 */
async function benchUsers(service, count, log) {
  const users = [];
  const tag = randomBytes(3).toString('hex');
  for (let first = 0; first < count; first += 4) {
    const batch = Array.from({ length: Math.min(4, count - first) }, (_, offset) => {
      const user = { username: `bench-${tag}-${first + offset}`, password: randomBytes(12).toString('hex') };
      return service.cli(['user:create', '--username', user.username, '--password', user.password]).then(() => user);
    });
    users.push(...(await Promise.all(batch)));
  }
  log(`${service.name}: ${users.length} users for the password grants`);
  return users;
}

/**
 * One kind of grant against one service for `durationSec`, with its CPU and statements per grant.
 * @param {import('../stand.js').Stand} stand
 * @param {import('../stand.js').Service} service
 */
async function grants(stand, service, { kind, users, concurrency, durationSec, warmupSec, log }) {
  // The refresh clients' first tokens come from password grants (Argon2, about 25 ms of CPU each): made
  // before the counters are read, so that they are not charged to the refresh grants.
  const chains = async () => (kind === 'refresh' ? await refreshChains(service.url, service.credentials, concurrency) : undefined);
  const run = async (seconds, first) =>
    tokenRun({ baseUrl: service.url, kind, credentials: service.credentials, users, concurrency, durationSec: seconds, chains: first });
  // The first seconds of a kind of grant ran 0.75-0.8x the grants/s of the next runs: the warm-up is not measured.
  if (warmupSec > 0) await run(warmupSec, await chains());
  const first = await chains();
  const before = { server: cpuSecondsOf(service.child.pid), database: cpuSecondsOf(stand.dbPid), counters: await statusCounters(stand.db) };
  const result = await run(durationSec, first);
  // The service's CPU and statements include the grants left in flight when the load stopped.
  const answered = result.ok + result.failed + result.unanswered;
  const perGrant = (seconds) => Math.round((seconds * 1e6) / Math.max(1, answered)) / 1000;
  const measured = {
    ...result,
    side: service.name,
    // The machine's 1-minute load average at the end: the other work on the cores that the figures share.
    loadAverage: loadavg()[0] ?? NaN,
    cpuPerGrantMs: {
      server: perGrant(cpuSecondsOf(service.child.pid) - before.server),
      database: perGrant(cpuSecondsOf(stand.dbPid) - before.database),
    },
    databasePerGrant: counterRates(before.counters, await statusCounters(stand.db), answered),
  };
  log(
    `${service.name} token ${kind}: ${result.grantsPerSec.toFixed(0)} grants/s, p50 ${result.latencyMs.p50.toFixed(1)} ms, p99 ${result.latencyMs.p99.toFixed(1)} ms, failed ${result.failed}` +
      ` | CPU ms/grant: server ${measured.cpuPerGrantMs.server}, MariaDB ${measured.cpuPerGrantMs.database}, load ${result.generatorCpuMsPerGrant.toFixed(3)} | per grant: Questions ${measured.databasePerGrant.Questions}, fsyncs ${measured.databasePerGrant.Innodb_data_fsyncs} | load average ${measured.loadAverage.toFixed(1)}`,
  );
  return measured;
}

/** @type {import('./index.js').Scenario} */
export default {
  name: 'tokens',
  load: true,
  about: 'refresh and password grants per second on the service (and the baseline)',
  options: [
    { name: 'token-duration', env: 'BENCH_TOKEN_DURATION', default: 5, help: 'seconds per grant kind (and per burst run); 0 skips' },
    { name: 'token-concurrency', env: 'BENCH_TOKEN_CONCURRENCY', default: 32, help: 'concurrent token clients' },
    { name: 'token-kinds', env: 'BENCH_TOKEN_KINDS', kind: 'text', default: 'refresh,password', help: 'grants measured, in order' },
  ],

  async run({ stand, options, log }) {
    const service = stand.service;
    if (!service || options.tokenDuration <= 0) return null;
    const baseline = await stand.baseline();
    const services = baseline ? [service, baseline] : [service];
    const kinds = options.tokenKinds.split(',');
    const users = new Map();
    for (const each of services) users.set(each, kinds.includes('password') ? await benchUsers(each, options.tokenConcurrency, log) : []);
    const tokens = [];
    for (const [index, kind] of kinds.entries()) {
      // This tree first for one kind, the baseline first for the next: drift in the machine's speed cancels out.
      const order = index % 2 === 0 ? services : [...services].reverse();
      for (const each of order)
        tokens.push(
          await grants(stand, each, {
            kind,
            users: users.get(each),
            concurrency: options.tokenConcurrency,
            durationSec: options.tokenDuration,
            warmupSec: options.warmup,
            log,
          }),
        );
    }
    const problems = tokens
      .filter((t) => t.failed > 0)
      .map(
        (t) =>
          `${t.side} token ${t.kind}: ${t.failed} failed grant(s) ${JSON.stringify(t.statusCodes)} e.g. ${JSON.stringify(t.errorSamples[0])}`,
      );
    stand.sample();
    const memory = { hwmMiB: stand.memory.service?.hwmMiB ?? NaN };
    return {
      json: { tokens, memory },
      problems,
      table: (results) =>
        tokenTable({ config: options, memory, tokens, signing: results.signing ?? null, revision: options.baseline }).join('\n'),
    };
  },
};
