// @ts-check
// One measured load run against one server: the load (bench/ingest-load.js), the CPU the server,
// MariaDB and the load generator spent on it per request, the database's statement counters per row,
// and the accounting of every acknowledged record against the rows. Every scenario that puts
// submissions under load runs them through here, so their figures read alike.
import { counterRates, statusCounters } from './database.js';
import { account, ingestRun, summarize } from './ingest-load.js';
import { log } from './stand.js';
import { cpuSecondsOf, logTail } from './processes.js';
import { uplinkTemplates } from './uplink-bodies.js';

/** Where The Things Stack's webhook posts uplink messages. */
export const UPLINK_PATH = '/api-sensor/integrations/tts/uplink';

/**
 * @typedef {object} LoadRun
 * @property {import('./stand.js').Server & { uplinkKey?: string }} server
 * @property {number} round         0 is a warm-up
 * @property {number} durationSec
 * @property {number} connections
 * @property {string} [label]       how the log names the run (the server's name)
 * @property {number} [batchSize]   reports per request to the batch route (0: the single route)
 * @property {'records' | 'uplinks'} [route]  `uplinks`: The Things Stack's webhook with the server's integration key
 * @property {string[][]} [templates]  the bodies (bench/bodies.js): the stand's mix (or the uplinks') when not given
 */

/** A function running one LoadRun and returning its summary; run numbers keep serials and prefixes unique. */
export function loadRunner(stand) {
  let runIndex = 0;
  const uplinks = uplinkTemplates();
  /** @param {LoadRun} run */
  return async function loadRun({
    server,
    round,
    durationSec,
    connections,
    label = server.name,
    batchSize = 0,
    route = 'records',
    templates = route === 'uplinks' ? uplinks : stand.templates,
  }) {
    runIndex++;
    const prefix = `b${runIndex}${route === 'uplinks' ? 'u' : batchSize > 0 ? 'b' : server.name[0]}`;
    const reportsPerRequest = Math.max(1, batchSize);
    const child = server.child;
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${server.name} died:\n${logTail(child)}`);
    const before = await statusCounters(stand.db);
    const cpuBefore = { server: cpuSecondsOf(child.pid), database: cpuSecondsOf(stand.dbPid) };
    const run = await ingestRun({
      baseUrl: server.url,
      token: server.token,
      prefix,
      connections,
      durationSec,
      templates,
      serialBase: runIndex * 10_000_000,
      batchSize,
      ...(route === 'uplinks'
        ? { path: UPLINK_PATH, headers: { Authorization: `Bearer ${server.uplinkKey}`, 'Content-Type': 'application/json' } }
        : {}),
    });
    const cpuMs = (seconds) => Math.round((seconds * 1e6) / Math.max(1, run.answers.size)) / 1000;
    const cpuPerRequestMs = {
      server: cpuMs(cpuSecondsOf(child.pid) - cpuBefore.server),
      database: cpuMs(cpuSecondsOf(stand.dbPid) - cpuBefore.database),
      loadGenerator: cpuMs(run.generatorCpuSeconds),
    };
    const accounting = await account(run, server.db, prefix, connections, reportsPerRequest);
    const perRequest = counterRates(before, await statusCounters(stand.db), accounting.rows);
    const summary = {
      side: label,
      route,
      round,
      prefix,
      reportsPerRequest,
      ...summarize(run, accounting, reportsPerRequest),
      cpuPerRequestMs,
      databasePerRow: perRequest,
      problems: accounting.problems.map((problem) => `${label} round ${round}: ${problem}`),
    };
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
}

/** @typedef {Awaited<ReturnType<ReturnType<typeof loadRunner>>>} LoadSummary */
/** @typedef {Omit<LoadRun, 'round' | 'durationSec'>} LoadSide a LoadRun without its round and duration */

/**
 * Alternating rounds over `runs` (the order reversed every other round, so drift in the machine's
 * speed cancels out), after a warm-up of each; the measured summaries of each run's key.
 * @template {string} K
 * @param {(run: LoadRun) => Promise<LoadSummary>} loadRun
 * @param {Array<[K, LoadSide]>} runs
 * @param {{ rounds: number; durationSec: number; warmupSec: number }} timing
 * @returns {Promise<Record<K, LoadSummary[]>>}
 */
export async function alternatingRounds(loadRun, runs, { rounds, durationSec, warmupSec }) {
  /** @type {Record<string, LoadSummary[]>} */
  const measured = Object.fromEntries(runs.map(([key]) => [key, []]));
  if (warmupSec > 0) for (const [, run] of runs) await loadRun({ ...run, round: 0, durationSec: warmupSec });
  for (let round = 1; round <= rounds; round++) {
    const order = round % 2 === 1 ? runs : [...runs].reverse();
    for (const [key, run] of order) measured[key]?.push(await loadRun({ ...run, round, durationSec }));
  }
  return /** @type {Record<K, LoadSummary[]>} */ (measured);
}
