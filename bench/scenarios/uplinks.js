// @ts-check
// The Things Stack's webhook on the service (an integration of the bench user, `--dev-id name`;
// uplinks of two or three gateways with a decoded payload, each a new uplink), after a warm-up,
// reported beside the single route's figure of the ingest scenario.
import { uplinkTable } from '../report.js';

/** @type {import('./index.js').Scenario} */
export default {
  name: 'uplinks',
  about: "The Things Stack's webhook on the service, beside the single route",
  options: [
    {
      name: 'uplink-duration',
      env: 'BENCH_UPLINK_DURATION',
      default: 10,
      help: 'seconds of TTS uplinks (after a warm-up); 0 skips',
    },
  ],

  async run({ stand, options, loadRun }) {
    const service = stand.service;
    if (!service || options.uplinkDuration <= 0) return null;
    const run = { server: service, connections: options.connections, route: /** @type {const} */ ('uplinks') };
    if (options.warmup > 0) await loadRun({ ...run, round: 0, durationSec: options.warmup });
    const uplinks = await loadRun({ ...run, round: 1, durationSec: options.uplinkDuration });
    return {
      json: uplinks,
      problems: uplinks.problems.map((problem) => `TTS uplinks: ${problem}`),
      table: (results) => uplinkTable({ config: options, service: results.ingest?.summaries.service ?? {}, uplinks }).join('\n'),
    };
  },
};
