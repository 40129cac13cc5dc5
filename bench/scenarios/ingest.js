// @ts-check
// Ingestion: the service's single route against the pipeline floor (bench/pipeline-floor.js) and the
// bare floor (bench/floor-server.js), the batch route against the bare floor's records per second,
// and, with `--baseline REV`, the service as built from REV: all in the same alternating rounds.
import { alternatingRounds } from '../load-run.js';
import { baselineReport, batchTable, ingestionTable, sideSummary } from '../report.js';

/** @type {import('./index.js').Scenario} */
export default {
  name: 'ingest',
  load: true,
  about: 'single submissions: the service, the baseline, the pipeline floor, the bare floor; the batch route',
  withoutService: true,
  options: [
    { name: 'batch-size', env: 'BENCH_BATCH_SIZE', default: 100, help: 'reports per request of the batch route; 0 skips it' },
    {
      name: 'batch-connections',
      env: 'BENCH_BATCH_CONNECTIONS',
      default: 4,
      help: "concurrent batch senders (relays are fewer than devices; the service's BATCHES_IN_FLIGHT default)",
    },
    {
      name: 'only',
      kind: 'text',
      default: null,
      help: 'profiling aid: load these sides only, comma-separated (service, baseline, pipeline, floor, batch, baselineBatch)',
    },
  ],

  async run({ stand, options, loadRun }) {
    const { floor, pipeline } = await stand.floors();
    const service = stand.service;
    const baseline = await stand.baseline();
    const single = { connections: options.connections };
    /** @type {Array<[string, import('../load-run.js').LoadSide]>} */
    const sides = [];
    if (service) sides.push(['service', { ...single, server: service }]);
    if (baseline) sides.push(['baseline', { ...single, server: baseline }]);
    if (pipeline) sides.push(['pipeline', { ...single, server: pipeline }]);
    sides.push(['floor', { ...single, server: floor }]);
    const batches = { batchSize: options.batchSize, connections: options.batchConnections };
    if (service && options.batchSize > 0) sides.push(['batch', { ...batches, server: service, label: 'batch' }]);
    if (baseline && options.batchSize > 0) sides.push(['baselineBatch', { ...batches, server: baseline, label: 'baseline batch' }]);
    const only = options.only ? String(options.only).split(',') : null;
    const chosen = sides.filter(([side]) => !only || only.includes(side));
    const measured = await alternatingRounds(loadRun, chosen, {
      rounds: options.rounds,
      durationSec: options.duration,
      warmupSec: options.warmup,
    });
    stand.sample();
    const memory = {};
    for (const name of ['service', 'baseline', 'pipeline', 'floor']) {
      const seen = stand.memory[name];
      memory[name] = { readyRssMiB: seen?.readyRssMiB ?? NaN, ingestHwmMiB: seen?.hwmMiB ?? NaN };
    }
    const of = (side) => measured[side] ?? [];
    const rounds = {
      service: of('service'),
      baseline: of('baseline'),
      pipeline: of('pipeline'),
      floor: of('floor'),
      batch: of('batch'),
      baselineBatch: of('baselineBatch'),
    };
    const summaries = {
      service: sideSummary(rounds.service),
      baseline: sideSummary(rounds.baseline),
      pipeline: sideSummary(rounds.pipeline),
      floor: sideSummary(rounds.floor),
      batch: sideSummary(rounds.batch),
      baselineBatch: sideSummary(rounds.baselineBatch),
    };
    const json = {
      summaries,
      ratios: {
        serviceToPipelineFloor: summaries.service.requestsPerSec / summaries.pipeline.requestsPerSec,
        serviceToBareFloor: summaries.service.requestsPerSec / summaries.floor.requestsPerSec,
        pipelineFloorToBareFloor: summaries.pipeline.requestsPerSec / summaries.floor.requestsPerSec,
        batchRecordsToBareFloor: summaries.batch.recordsPerSec / summaries.floor.requestsPerSec,
      },
      memory,
      rounds,
    };
    return {
      json,
      problems: Object.values(rounds).flatMap((list) => list.flatMap((run) => run.problems)),
      table: () => {
        const lines = ingestionTable({ config: options, summaries, rounds, memory, machine: stand.machine });
        if (rounds.batch.length > 0) lines.push('', ...batchTable({ config: options, summaries, rounds, revision: options.baseline }));
        if (rounds.baseline.length > 0) lines.push('', baselineReport({ revision: options.baseline, summaries, rounds, memory }));
        return lines.join('\n');
      },
    };
  },
};
