// @ts-check
// The speed targets (docs/benchmark.md#against-the-targets) read from the scenarios that ran before: each row's
// figure for this tree, for the baseline when there is one, and the target. A table, never a failure:
// the bench reports speed, it does not assert it.
import { fmt, times } from '../report.js';

/** @type {Array<{ label: string; target: string; met: (value: number) => boolean; value: (side: 'this' | 'baseline', results: Record<string, any>) => number; show: (value: number) => string }>} */
const TARGETS = [
  {
    label: 'single route / pipeline floor, requests/s (median of rounds)',
    target: '≥ 0.85x',
    met: (v) => v >= 0.85,
    value: (side, { ingest }) =>
      ingest?.summaries[side === 'this' ? 'service' : 'baseline'].requestsPerSec / ingest?.summaries.pipeline.requestsPerSec,
    show: (v) => times(v),
  },
  {
    label: 'single route p99 latency ms (median of rounds)',
    target: '≤ 50',
    met: (v) => v <= 50,
    value: (side, { ingest }) => ingest?.summaries[side === 'this' ? 'service' : 'baseline'].p99Ms,
    show: (v) => fmt(v, 1),
  },
  {
    label: 'batch route records/s / bare floor requests/s',
    target: '≥ 3x',
    met: (v) => v >= 3,
    value: (side, { ingest }) =>
      ingest?.summaries[side === 'this' ? 'batch' : 'baselineBatch'].recordsPerSec / ingest?.summaries.floor.requestsPerSec,
    show: (v) => times(v),
  },
  {
    label: "service CPU per batched record / bare floor's per request",
    target: '≤ 0.25x',
    met: (v) => v <= 0.25,
    value: (side, { ingest }) =>
      ingest?.summaries[side === 'this' ? 'batch' : 'baselineBatch'].cpuServerMs / ingest?.summaries.floor.cpuServerMs,
    show: (v) => times(v),
  },
  {
    label: 'refresh grants/s',
    target: '≥ 1000',
    met: (v) => v >= 1000,
    value: (side, { tokens }) =>
      tokens?.tokens.find((t) => t.kind === 'refresh' && (side === 'this' ? t.side === 'service' : t.side === 'baseline'))?.grantsPerSec ??
      NaN,
    show: (v) => fmt(v),
  },
  {
    label: "single route with an alert on every sensor / without, requests/s (median of rounds), the stand's mix of bodies",
    target: '≥ 0.95x',
    met: (v) => v >= 0.95,
    value: (side, { alerts }) => (side === 'this' ? (alerts?.ingestion?.ratios.mix ?? NaN) : NaN),
    show: (v) => times(v),
  },
  {
    label: 'the same, every report moving its trap (Sprung and Set in turn)',
    target: '≥ 0.95x',
    met: (v) => v >= 0.95,
    value: (side, { alerts }) => (side === 'this' ? (alerts?.ingestion?.ratios.traps ?? NaN) : NaN),
    show: (v) => times(v),
  },
  {
    label: "p99 ms from a Sprung record's send (before its commit) to the webhook's receipt, at 100 sprung records/s",
    target: '< 1000',
    met: (v) => v < 1000,
    value: (side, { alerts }) => (side === 'this' && alerts?.latency?.rate === 100 ? alerts.latency.fromSendMs.p99 : NaN),
    show: (v) => fmt(v, 1),
  },
];

/** @type {import('./index.js').Scenario} */
export default {
  name: 'targets',
  about: 'the speed targets, read from the scenarios that ran (this tree, the baseline, the target)',
  withoutService: true,

  async run({ options }) {
    return {
      json: null,
      table: (results) => {
        const revision = options.baseline;
        const cell = (side, target) => {
          const value = target.value(side, results);
          return Number.isFinite(value) ? `${target.show(value)}${target.met(value) ? ' (met)' : ''}` : 'n/a';
        };
        return [
          `Targets${revision ? `: this tree against ${revision}, in the same run` : ''}`,
          '',
          `| | target | this tree |${revision ? ` ${revision} |` : ''}`,
          `|---|---:|---:|${revision ? '---:|' : ''}`,
          ...TARGETS.map((t) => `| ${t.label} | ${t.target} | ${cell('this', t)} |${revision ? ` ${cell('baseline', t)} |` : ''}`),
        ].join('\n');
      },
    };
  },
};
