// @ts-check
// Turns the measurements into the markdown tables the benchmark prints (docs/benchmark.md quotes them).

export const median = (values) => {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** The `p`th percentile of ascending `sorted` (nearest rank); NaN when empty. */
export const percentile = (sorted, p) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

export const fmt = (value, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
export const times = (value, digits = 2) => (Number.isFinite(value) ? `${value.toFixed(digits)}x` : 'n/a');

/** Aggregates the measured rounds of one side. */
export function sideSummary(rounds) {
  const sum = (key) => rounds.reduce((total, round) => total + round[key], 0);
  return {
    rounds: rounds.length,
    requestsPerSec: median(rounds.map((r) => r.requestsPerSec)),
    recordsPerSec: median(rounds.map((r) => r.recordsPerSec)),
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
    cpuGeneratorMs: median(rounds.map((r) => r.cpuPerRequestMs?.loadGenerator)),
    statementsPerRow: median(rounds.map((r) => r.databasePerRow?.Questions)),
  };
}

export const rowCheck = (s) => `${s.rows} = ${s.acked} + ${s.inFlightStored} (lost ${s.lost}, extra ${s.extra})`;
export const perRound = (rounds, key = 'requestsPerSec') => rounds.map((r) => fmt(r[key])).join(', ');

/** The ingestion table: the service beside the pipeline floor and the bare floor, with their ratios. */
export function ingestionTable({ config, summaries, rounds, memory, machine }) {
  const { service, pipeline, floor } = summaries;
  const ratios = (get, digits = 2) =>
    `${times(get(service) / get(pipeline), digits)} | ${times(get(service) / get(floor), digits)} | ${times(get(pipeline) / get(floor), digits)}`;
  const memoryOf = (side) => `${fmt(memory[side].readyRssMiB)}; ${fmt(memory[side].ingestHwmMiB)}`;
  return [
    `Ingestion: ${config.connections} connections, ${config.rounds} rounds x ${config.duration} s per side, alternating` + ` (${machine})`,
    '',
    '| | service | pipeline floor | bare floor | service / pipeline floor | service / bare floor | pipeline / bare floor |',
    '|---|---:|---:|---:|---:|---:|---:|',
    `| requests/s (median of rounds) | ${fmt(service.requestsPerSec)} | ${fmt(pipeline.requestsPerSec)} | ${fmt(floor.requestsPerSec)} | ${ratios((s) => s.requestsPerSec)} |`,
    `| p50 latency ms (median) | ${fmt(service.p50Ms, 1)} | ${fmt(pipeline.p50Ms, 1)} | ${fmt(floor.p50Ms, 1)} | ${ratios((s) => s.p50Ms)} |`,
    `| p99 latency ms (median; worst round) | ${fmt(service.p99Ms, 1)}; ${fmt(service.worstP99Ms, 1)} | ${fmt(pipeline.p99Ms, 1)}; ${fmt(pipeline.worstP99Ms, 1)} | ${fmt(floor.p99Ms, 1)}; ${fmt(floor.worstP99Ms, 1)} | ${ratios((s) => s.p99Ms)} |`,
    `| CPU ms per request, server process (median) | ${fmt(service.cpuServerMs, 3)} | ${fmt(pipeline.cpuServerMs, 3)} | ${fmt(floor.cpuServerMs, 3)} | ${ratios((s) => s.cpuServerMs, 1)} |`,
    `| CPU ms per request, MariaDB (median) | ${fmt(service.cpuDatabaseMs, 3)} | ${fmt(pipeline.cpuDatabaseMs, 3)} | ${fmt(floor.cpuDatabaseMs, 3)} | ${ratios((s) => s.cpuDatabaseMs, 1)} |`,
    `| CPU ms per request, load generator (wrk; median) | ${fmt(service.cpuGeneratorMs, 3)} | ${fmt(pipeline.cpuGeneratorMs, 3)} | ${fmt(floor.cpuGeneratorMs, 3)} | | | |`,
    `| SQL statements per stored row (server-wide count) | ${fmt(service.statementsPerRow, 2)} | ${fmt(pipeline.statementsPerRow, 2)} | ${fmt(floor.statementsPerRow, 2)} | | | |`,
    `| non-2xx / connection errors | ${service.non2xx} / ${service.errors} | ${pipeline.non2xx} / ${pipeline.errors} | ${floor.non2xx} / ${floor.errors} | | | |`,
    `| rows = 201s + in-flight at stop | ${rowCheck(service)} | ${rowCheck(pipeline)} | ${rowCheck(floor)} | | | |`,
    `| resident memory MiB: ready; peak after ingestion (VmHWM) | ${memoryOf('service')} | ${memoryOf('pipeline')} | ${memoryOf('floor')} | | | |`,
    '',
    `Per round, requests/s: service ${perRound(rounds.service)}; pipeline floor ${perRound(rounds.pipeline)}; bare floor ${perRound(rounds.floor)}`,
  ];
}

/**
 * The batch table: records per second through the batch route against the bare floor's one record per
 * request; with a baseline, its batch route beside.
 */
export function batchTable({ config, summaries, rounds, revision }) {
  const { batch, baselineBatch, floor } = summaries;
  const before = rounds.baselineBatch.length > 0;
  const cells = (get) => (before ? [get(batch), get(baselineBatch)] : [get(batch)]);
  const row = (label, get, last = '') => `| ${label} | ${cells(get).join(' | ')} | ${get(floor)} | ${last} |`;
  const cpu = (s) => `${fmt(s.cpuServerMs, 3)}; ${fmt(s.cpuDatabaseMs, 3)}; ${fmt(s.cpuGeneratorMs, 3)}`;
  return [
    `Batch route: ${config.batchSize} reports per request, ${config.batchConnections} connections, in the same rounds` +
      ` (the bare floor at ${config.connections})`,
    '',
    `| | service, batches of ${config.batchSize} |${before ? ` ${revision}, batches of ${config.batchSize} |` : ''} bare floor, one record per request | batch / bare floor${before ? ` (${revision})` : ''} |`,
    `|---|---:|${before ? '---:|' : ''}---:|---:|`,
    row(
      'records/s (median of rounds)',
      (s) => fmt(s === floor ? s.requestsPerSec : s.recordsPerSec),
      `${times(batch.recordsPerSec / floor.requestsPerSec)}${before ? ` (${times(baselineBatch.recordsPerSec / floor.requestsPerSec)})` : ''}`,
    ),
    row('requests/s', (s) => fmt(s.requestsPerSec)),
    row('p50 latency ms per request (median)', (s) => fmt(s.p50Ms, 1)),
    row('p99 latency ms per request (median; worst round)', (s) => `${fmt(s.p99Ms, 1)}; ${fmt(s.worstP99Ms, 1)}`),
    row(
      'CPU ms per record (per request for the floor): server process; MariaDB; load generator (median)',
      cpu,
      `${times(batch.cpuServerMs / floor.cpuServerMs)}; ${times(batch.cpuDatabaseMs / floor.cpuDatabaseMs)}${before ? ` (${times(baselineBatch.cpuServerMs / floor.cpuServerMs)}; ${times(baselineBatch.cpuDatabaseMs / floor.cpuDatabaseMs)})` : ''}`,
    ),
    row('SQL statements per stored row (server-wide count)', (s) => fmt(s.statementsPerRow, 2)),
    row('non-2xx / connection errors', (s) => `${s.non2xx} / ${s.errors}`),
    row('rows = 201s + in-flight at stop', rowCheck),
    '',
    `Per round, records/s: batch route ${perRound(rounds.batch, 'recordsPerSec')}${before ? `; ${revision} ${perRound(rounds.baselineBatch, 'recordsPerSec')}` : ''}`,
  ];
}

/** The Things Stack webhook beside the sensor-record route (service only; with a baseline, its webhook beside). */
export function uplinkTable({ config, records, uplinks: u, baseline, revision }) {
  const beside = (get) => (baseline ? ` ${get(baseline)} |` : '');
  return [
    `The Things Stack webhook (${config.connections} connections, ${config.uplinkDuration} s per round after a warm-up;` +
      ' uplinks of two or three gateways with a decoded payload, each a new uplink), beside the sensor-record route',
    '',
    `| | sensor records (median of rounds) | TTS uplinks | uplinks / records |${baseline ? ` TTS uplinks, ${revision} |` : ''}`,
    `|---|---:|---:|---:|${baseline ? '---:|' : ''}`,
    `| per second | ${fmt(records.requestsPerSec)} | ${fmt(u.requestsPerSec)} | ${times(u.requestsPerSec / records.requestsPerSec)} |${beside((s) => fmt(s.requestsPerSec))}`,
    `| p50; p99 latency ms | ${fmt(records.p50Ms, 1)}; ${fmt(records.p99Ms, 1)} | ${fmt(u.p50Ms, 1)}; ${fmt(u.p99Ms, 1)} | |${beside((s) => `${fmt(s.p50Ms, 1)}; ${fmt(s.p99Ms, 1)}`)}`,
    `| CPU ms per request: server process; MariaDB | ${fmt(records.cpuServerMs, 3)}; ${fmt(records.cpuDatabaseMs, 3)} | ${fmt(u.cpuServerMs, 3)}; ${fmt(u.cpuDatabaseMs, 3)} | ${times(u.cpuServerMs / records.cpuServerMs, 1)}; ${times(u.cpuDatabaseMs / records.cpuDatabaseMs, 1)} |${beside((s) => `${fmt(s.cpuServerMs, 3)}; ${fmt(s.cpuDatabaseMs, 3)}`)}`,
    `| CPU ms per request, load generator (wrk) | ${fmt(records.cpuGeneratorMs, 3)} | ${fmt(u.cpuGeneratorMs, 3)} | |${beside((s) => fmt(s.cpuGeneratorMs, 3))}`,
    `| SQL statements per stored row | ${fmt(records.statementsPerRow, 2)} | ${fmt(u.statementsPerRow, 2)} | |${beside((s) => fmt(s.statementsPerRow, 2))}`,
    `| non-2xx / connection errors | ${records.non2xx} / ${records.errors} | ${u.non2xx} / ${u.errors} | |${beside((s) => `${s.non2xx} / ${s.errors}`)}`,
    `| rows = 201s + in-flight at stop | ${rowCheck(records)} | ${rowCheck(u)} | |${beside(rowCheck)}`,
  ];
}

/** The machine's RSA-2048 signing rate: each grant signs one access token, so it is the grants' ceiling. */
export function signingLine(signing) {
  return (
    `RSA-2048 (RS256) signatures/s on this machine: one thread ${fmt(signing.oneThread)}; ` +
    `thread pool (${signing.threadPoolSize} threads, ${signing.inFlight} in flight) ${fmt(signing.threadPool)}; ` +
    `process CPU ms per signature: one thread ${fmt(signing.cpuMsPerSignature.oneThread, 3)}, thread pool ${fmt(signing.cpuMsPerSignature.threadPool, 3)}`
  );
}

/** The token endpoint's grants, read against the machine's RSA-2048 signing rate when it was measured. */
export function tokenTable({ config, memory, tokens, signing, revision }) {
  const side = (t) => (t.side === 'baseline' ? ` (${revision})` : revision ? ' (this tree)' : '');
  return [
    `Token endpoint (service only, ${tokens[0].concurrency} concurrent clients, ${config.tokenDuration} s each;` +
      ` service peak resident memory after it ${fmt(memory.hwmMiB)} MiB)`,
    '',
    '| grant | grants/s | share of the pool signing rate | p50 ms | p99 ms | failed | CPU ms/grant service; MariaDB; load generator (wrk) | SQL statements/grant |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...tokens.map(
      (t) =>
        `| ${t.kind}${side(t)} | ${fmt(t.grantsPerSec)} | ${signing ? `${fmt((100 * t.grantsPerSec) / signing.threadPool)} %` : 'n/a'} |` +
        ` ${fmt(t.latencyMs.p50, 1)} | ${fmt(t.latencyMs.p99, 1)} | ${t.failed} |` +
        ` ${fmt(t.cpuPerGrantMs?.server, 3)}; ${fmt(t.cpuPerGrantMs?.database, 3)}; ${fmt(t.generatorCpuMsPerGrant, 3)} | ${fmt(t.databasePerGrant?.Questions, 1)} |`,
    ),
  ];
}

/** Submissions during a refresh burst against their rate alone. */
export function burstTable({ config, burst }) {
  return [
    `Submissions during a refresh burst (${config.connections} submitting connections; ${config.tokenConcurrency} refreshing clients; ${burst.durationSec} s runs, alone and during alternating, median of 2 each)`,
    '',
    '| submissions/s alone | submissions/s during the burst | during / alone | refresh grants/s during the burst |',
    '|---:|---:|---:|---:|',
    `| ${fmt(burst.aloneRecordsPerSec)} | ${fmt(burst.duringRecordsPerSec)} | ${times(burst.ratio)} | ${fmt(burst.grantsPerSec)} |`,
  ];
}

/**
 * The service against itself as built from another revision (`--baseline`): what a change costs, and
 * both against the pipeline floor and the bare floor of the same rounds (the three-way table before
 * and after).
 */
export function baselineReport({ revision, summaries, rounds, memory }) {
  const { service, baseline, pipeline, floor } = summaries;
  const row = (label, get, digits = 0) =>
    `| ${label} | ${fmt(get(service), digits)} | ${fmt(get(baseline), digits)} | ${times(get(service) / get(baseline))} |` +
    ` ${times(get(service) / get(pipeline))} | ${times(get(baseline) / get(pipeline))} | ${times(get(service) / get(floor))} | ${times(get(baseline) / get(floor))} |`;
  return [
    `This tree against ${revision} (same machine, same alternating rounds; ${revision} on a database of its own)`,
    '',
    `| | this tree | ${revision} | this / ${revision} | this / pipeline floor | ${revision} / pipeline floor | this / bare floor | ${revision} / bare floor |`,
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    row('requests/s (median of rounds)', (s) => s.requestsPerSec),
    row('p50 latency ms (median)', (s) => s.p50Ms, 1),
    row('p99 latency ms (median)', (s) => s.p99Ms, 1),
    row('CPU ms per request, server process (median)', (s) => s.cpuServerMs, 3),
    row('CPU ms per request, MariaDB (median)', (s) => s.cpuDatabaseMs, 3),
    row('CPU ms per request, load generator (wrk; median)', (s) => s.cpuGeneratorMs, 3),
    `| SQL statements per stored row | ${fmt(service.statementsPerRow, 2)} | ${fmt(baseline.statementsPerRow, 2)} | | | | | |`,
    `| non-2xx / connection errors | ${service.non2xx} / ${service.errors} | ${baseline.non2xx} / ${baseline.errors} | | | | | |`,
    `| rows = 201s + in-flight at stop | ${rowCheck(service)} | ${rowCheck(baseline)} | | | | | |`,
    `| resident memory MiB: ready; peak after ingestion (VmHWM) | ${fmt(memory.service.readyRssMiB)}; ${fmt(memory.service.ingestHwmMiB)} | ${fmt(memory.baseline.readyRssMiB)}; ${fmt(memory.baseline.ingestHwmMiB)} | | | | | |`,
    '',
    `Per round, requests/s: this tree ${perRound(rounds.service)}; ${revision} ${perRound(rounds.baseline)}`,
  ].join('\n');
}
