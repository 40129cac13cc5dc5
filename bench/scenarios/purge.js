// @ts-check
// Retention's cost to ingestion (docs/operations.md#retention): a table of `--purge-records` records
// received more than a year ago written straight into MariaDB, then the service's single route loaded
// alone, beside `records:purge` deleting them (the paced batches the scheduled retention uses), and
// alone again; and how long the purge took.
import { randomBytes } from 'node:crypto';
import { runCommand } from '../processes.js';
import { seedRecords } from '../read-side.js';
import { sideSummary } from '../report.js';

const DAY_MS = 86_400_000;

/** @type {import('./index.js').Scenario} */
export default {
  name: 'purge',
  load: true,
  about: 'ingestion alone, beside records:purge deleting old records, and alone again; how long the purge took',
  options: [{ name: 'purge-records', env: 'BENCH_PURGE_RECORDS', default: 1_000_000, help: 'old records the purge deletes; 0 skips it' }],

  async run({ stand, options, loadRun, log }) {
    const service = stand.service;
    if (!service || options.purgeRecords <= 0) return null;
    const owner = await service.cli([
      'user:create',
      '--username',
      `bench-old-${randomBytes(3).toString('hex')}`,
      '--password',
      randomBytes(12).toString('hex'),
    ]);
    log(`seeding ${options.purgeRecords} records received 400 to 430 days ago for uid ${owner.uid}`);
    const seedSeconds = await seedRecords(stand.db, {
      uid: owner.uid,
      records: options.purgeRecords,
      sensors: 1000,
      now: Date.now() - 400 * DAY_MS,
      log,
    });
    const before = new Date(Date.now() - 365 * DAY_MS).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const side = { server: service, connections: options.connections, durationSec: options.duration };
    if (options.warmup > 0) await loadRun({ ...side, round: 0, durationSec: options.warmup });

    const alone = [await loadRun({ ...side, round: 1, label: 'ingestion alone' })];
    const started = Date.now();
    let purgeEndedAt = 0;
    const purging = runCommand(process.execPath, ['dist/cli.js', 'records:purge', '--before', before], {
      cwd: service.dir,
      env: service.env,
      timeoutMs: 6 * 3_600_000,
    }).finally(() => (purgeEndedAt = Date.now()));
    const beside = await loadRun({ ...side, round: 1, label: 'ingestion beside the purge' });
    const besideEndedAt = Date.now();
    const purged = await purging;
    const purgeSeconds = (purgeEndedAt - started) / 1000;
    alone.push(await loadRun({ ...side, round: 2, label: 'ingestion alone' }));

    const printed = purged.code === 0 ? JSON.parse(purged.stdout.trim().split('\n').pop() ?? '{}') : {};
    const [[{ remaining }]] = /** @type {any} */ (
      await stand.db.query('SELECT COUNT(*) AS remaining FROM sensor_report WHERE uid = ?', [owner.uid])
    );
    const summaries = { alone: sideSummary(alone), beside: sideSummary([beside]) };
    const aloneRate = alone.reduce((sum, run) => sum + run.requestsPerSec, 0) / alone.length;
    const measured = {
      records: options.purgeRecords,
      seedSeconds,
      purgeSeconds,
      // The load run beside the purge saw it all the way through only if the purge outlasted it.
      purgeOutlastedLoad: purgeEndedAt >= besideEndedAt,
      besideToAlone: beside.requestsPerSec / aloneRate,
      summaries,
      rounds: { alone, beside: [beside] },
    };
    const problems = [
      ...[...alone, beside].flatMap((run) => run.problems),
      ...(purged.code !== 0 ? [`records:purge failed: ${purged.stderr.trim()}`] : []),
      ...(Number(remaining) !== 0 ? [`${remaining} old records left after the purge`] : []),
      ...(purged.code === 0 && printed.records !== options.purgeRecords
        ? [`records:purge said ${printed.records}, not ${options.purgeRecords}`]
        : []),
    ];
    return {
      json: measured,
      problems,
      table: () =>
        [
          `Purge of ${options.purgeRecords} old records beside ingestion (${options.connections} connections, ${options.duration} s per run; ${stand.machine}):`,
          '',
          '| run | requests/s | p50 ms | p99 ms |',
          '|---|---:|---:|---:|',
          ...[...alone.slice(0, 1), beside, ...alone.slice(1)].map(
            (run) => `| ${run.side} | ${run.requestsPerSec.toFixed(0)} | ${run.latencyMs.p50} | ${run.latencyMs.p99} |`,
          ),
          '',
          `Beside the purge: ${(measured.besideToAlone * 100).toFixed(0)} % of the requests/s alone (target: at least 90 %)` +
            (measured.purgeOutlastedLoad
              ? '.'
              : ', but the purge ended before the run did: a larger --purge-records covers the whole run.'),
          `The purge took ${purgeSeconds.toFixed(1)} s (${(options.purgeRecords / purgeSeconds).toFixed(0)} records/s); seeding ${seedSeconds.toFixed(1)} s.`,
        ].join('\n'),
    };
  },
};
