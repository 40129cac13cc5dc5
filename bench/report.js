// @ts-check
// Turns the measurements into the markdown table the benchmark prints (and the README quotes).

export const median = (values) => {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

const fmt = (value, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
const times = (value, digits = 2) => (Number.isFinite(value) ? `${value.toFixed(digits)}x` : 'n/a');

/** Aggregates the measured rounds of one side. */
export function sideSummary(rounds) {
  const sum = (key) => rounds.reduce((total, round) => total + round[key], 0);
  return {
    rounds: rounds.length,
    requestsPerSec: median(rounds.map((r) => r.requestsPerSec)),
    p50Ms: median(rounds.map((r) => r.latencyMs.p50)),
    p99Ms: median(rounds.map((r) => r.latencyMs.p99)),
    worstP99Ms: Math.max(...rounds.map((r) => r.latencyMs.p99)),
    acked: sum('acked'),
    rows: sum('rows'),
    non2xx: sum('non2xx'),
    errors: sum('errors'),
    lost: sum('lost'),
    extra: sum('extra'),
    inFlightStored: sum('inFlightStored'),
    cpuServerMs: median(rounds.map((r) => r.cpuPerRequestMs?.server)),
    cpuDatabaseMs: median(rounds.map((r) => r.cpuPerRequestMs?.database)),
    statementsPerRow: median(rounds.map((r) => r.databasePerRow?.Questions)),
  };
}

export function markdownReport({ config, service, floor, serviceRounds, floorRounds, memory, tokens, machine }) {
  const ratio = service.requestsPerSec / floor.requestsPerSec;
  const rowCheck = (s) => `${s.rows} = ${s.acked} + ${s.inFlightStored} (lost ${s.lost}, extra ${s.extra})`;
  const lines = [
    `Ingestion: ${config.connections} connections, ${config.rounds} rounds x ${config.durationSec} s per side, alternating` +
      ` (${machine})`,
    '',
    '| | service | floor | service / floor |',
    '|---|---:|---:|---:|',
    `| requests/s (median of rounds) | ${fmt(service.requestsPerSec)} | ${fmt(floor.requestsPerSec)} | ${times(ratio)} |`,
    `| p50 latency ms (median) | ${fmt(service.p50Ms, 1)} | ${fmt(floor.p50Ms, 1)} | ${times(service.p50Ms / floor.p50Ms)} |`,
    `| p99 latency ms (median; worst round) | ${fmt(service.p99Ms, 1)}; ${fmt(service.worstP99Ms, 1)} | ${fmt(floor.p99Ms, 1)}; ${fmt(floor.worstP99Ms, 1)} | ${times(service.p99Ms / floor.p99Ms)} |`,
    `| CPU ms per request: server process; MariaDB (median) | ${fmt(service.cpuServerMs, 3)}; ${fmt(service.cpuDatabaseMs, 3)} | ${fmt(floor.cpuServerMs, 3)}; ${fmt(floor.cpuDatabaseMs, 3)} | ${times(service.cpuServerMs / floor.cpuServerMs, 1)}; ${times(service.cpuDatabaseMs / floor.cpuDatabaseMs, 1)} |`,
    `| SQL statements per stored row (server-wide count) | ${fmt(service.statementsPerRow, 2)} | ${fmt(floor.statementsPerRow, 2)} | |`,
    `| non-2xx / connection errors | ${service.non2xx} / ${service.errors} | ${floor.non2xx} / ${floor.errors} | |`,
    `| rows = 201s + in-flight at stop | ${rowCheck(service)} | ${rowCheck(floor)} | |`,
    `| resident memory MiB: ready; peak after ingestion (VmHWM) | ${fmt(memory.service.readyRssMiB)}; ${fmt(memory.service.ingestHwmMiB)} | ${fmt(memory.floor.readyRssMiB)}; ${fmt(memory.floor.ingestHwmMiB)} | |`,
    '',
    `Per round, requests/s: service ${serviceRounds.map((r) => fmt(r.requestsPerSec)).join(', ')}; floor ${floorRounds.map((r) => fmt(r.requestsPerSec)).join(', ')}`,
  ];
  if (tokens.length > 0) {
    lines.push(
      '',
      `Token endpoint (service only, ${tokens[0].concurrency} concurrent clients, ${config.tokenDurationSec} s each;` +
        ` service peak resident memory after it ${fmt(memory.service.hwmMiB)} MiB)`,
      '',
      '| grant | grants/s | p50 ms | p99 ms | failed | CPU ms/grant service; MariaDB | SQL statements/grant |',
      '|---|---:|---:|---:|---:|---:|---:|',
      ...tokens.map(
        (t) =>
          `| ${t.kind} | ${fmt(t.grantsPerSec)} | ${fmt(t.latencyMs.p50, 1)} | ${fmt(t.latencyMs.p99, 1)} | ${t.failed} |` +
          ` ${fmt(t.cpuPerGrantMs?.server, 3)}; ${fmt(t.cpuPerGrantMs?.database, 3)} | ${fmt(t.databasePerGrant?.Questions, 1)} |`,
      ),
    );
  }
  return lines.join('\n');
}

/** The service against itself as built from another revision (`--baseline`): what a change costs. */
export function baselineReport({ revision, service, baseline, serviceRounds, baselineRounds }) {
  const row = (label, a, b, digits = 0) => `| ${label} | ${fmt(a, digits)} | ${fmt(b, digits)} | ${times(a / b)} |`;
  return [
    `This tree against ${revision} (same machine, alternating rounds)`,
    '',
    `| | this tree | ${revision} | this / ${revision} |`,
    '|---|---:|---:|---:|',
    row('requests/s (median of rounds)', service.requestsPerSec, baseline.requestsPerSec),
    row('p50 latency ms (median)', service.p50Ms, baseline.p50Ms, 1),
    row('p99 latency ms (median)', service.p99Ms, baseline.p99Ms, 1),
    row('CPU ms per request, server process (median)', service.cpuServerMs, baseline.cpuServerMs, 3),
    row('CPU ms per request, MariaDB (median)', service.cpuDatabaseMs, baseline.cpuDatabaseMs, 3),
    row('SQL statements per stored row', service.statementsPerRow, baseline.statementsPerRow, 2),
    '',
    `Per round, requests/s: this tree ${serviceRounds.map((r) => fmt(r.requestsPerSec)).join(', ')}; ${revision} ${baselineRounds.map((r) => fmt(r.requestsPerSec)).join(', ')}`,
  ].join('\n');
}
