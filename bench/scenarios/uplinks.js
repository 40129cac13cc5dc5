// @ts-check
// The Things Stack's webhook on the service (an integration of the bench user, `--dev-id name`;
// uplinks of two or three gateways with a decoded payload, each a new uplink), after a warm-up,
// reported beside the single route's figure of the ingest scenario; with `--baseline`, the baseline's
// webhook in alternating rounds beside it.
import { alternatingRounds } from '../load-run.js';
import { sideSummary, uplinkTable } from '../report.js';

/** @type {import('./index.js').Scenario} */
export default {
  name: 'uplinks',
  load: true,
  about: "The Things Stack's webhook on the service, beside the single route",
  options: [
    {
      name: 'uplink-duration',
      env: 'BENCH_UPLINK_DURATION',
      default: 10,
      help: 'seconds of TTS uplinks per round (after a warm-up; one round, or --rounds beside a baseline); 0 skips',
    },
  ],

  async run({ stand, options, loadRun }) {
    const service = stand.service;
    if (!service || options.uplinkDuration <= 0) return null;
    const baseline = await stand.baseline();
    const uplinks = { connections: options.connections, route: /** @type {const} */ ('uplinks') };
    /** @type {Array<[string, import('../load-run.js').LoadSide]>} */
    const sides = [['service', { ...uplinks, server: service }]];
    if (baseline) sides.push(['baseline', { ...uplinks, server: baseline, label: 'baseline' }]);
    const rounds = await alternatingRounds(loadRun, sides, {
      rounds: baseline ? options.rounds : 1,
      durationSec: options.uplinkDuration,
      warmupSec: options.warmup,
    });
    const summaries = { service: sideSummary(rounds.service ?? []), baseline: sideSummary(rounds.baseline ?? []) };
    return {
      json: { summaries, rounds },
      problems: Object.values(rounds).flatMap((list) => list.flatMap((run) => run.problems.map((problem) => `TTS uplinks: ${problem}`))),
      table: (results) =>
        uplinkTable({
          config: options,
          records: results.ingest?.summaries.service ?? sideSummary([]),
          uplinks: summaries.service,
          baseline: baseline ? summaries.baseline : null,
          revision: options.baseline,
        }).join('\n'),
    };
  },
};
