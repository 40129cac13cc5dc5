// @ts-check
// One ingestion load run: wrk (bench/wrk.js) against one server with the shared valid bodies, every report
// numbered (its serial travels as `field_sequence`, its run as the dev_id prefix), so afterwards the
// rows in the database can be matched one by one against the answers received. A batch run sends
// `batchSize` reports per request to the batch route; each report's serial is answered with its batch.
import { renderBody } from './bodies.js';
import { serialsStored } from './database.js';
import { wrkRun } from './wrk.js';

export const RECORD_PATH = '/api-sensor/iot/sensor-record';
export const BATCH_PATH = '/api-sensor/iot/sensor-records';

/**
 * The sensor-record route with an access token; other loads (the TTS webhook) pass a path and headers of their own.
 * @returns {Record<string, string>}
 */
export const recordHeaders = (token) => ({
  Authorization: `Bearer ${token}`,
  'Content-Type': 'application/hal+json',
  Accept: 'application/hal+json',
});

/**
 * Drives `baseUrl` for `durationSec` at `connections`; returns throughput, latency and the per-serial
 * answers. `serialBase` keeps serials unique across runs. With `batchSize`, each request is a batch of
 * that many reports to the batch route.
 */
export async function ingestRun({
  baseUrl,
  token,
  prefix,
  connections,
  durationSec,
  templates,
  serialBase,
  batchSize = 0,
  timeoutSec = 10,
  path = batchSize > 0 ? BATCH_PATH : RECORD_PATH,
  headers = recordHeaders(token),
}) {
  return wrkRun({ baseUrl, path, headers, templates, prefix, serialBase, batchSize, connections, durationSec, timeoutSec });
}

/** Waits until the rows for `prefix` stop changing (requests in flight at the stop finish), then reads them. */
async function settledSerials(db, prefix, columns, { quietMs = 400, maxMs = 15_000 } = {}) {
  const deadline = Date.now() + maxMs;
  let previous = await serialsStored(db, prefix, columns);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, quietMs));
    const current = await serialsStored(db, prefix, columns);
    if (current.length === previous.length || Date.now() > deadline) return current;
    previous = current;
  }
}

/**
 * Matches answers against rows: every 2xx must have exactly one row, no row may exist for a request
 * answered with an error or never sent. Requests still in flight when the load stopped (no answer)
 * may or may not have a row; there can be at most one request per connection, of `reportsPerRequest`.
 */
export async function account(run, db, prefix, connections, reportsPerRequest = 1, columns = undefined) {
  const stored = await settledSerials(db, prefix, columns);
  const sentSet = new Set(run.sent);
  const storedSet = new Set(stored);
  let acked = 0;
  let non2xx = 0;
  let lost = 0;
  let storedAfterError = 0;
  for (const [serial, status] of run.answers) {
    if (status >= 200 && status <= 299) {
      acked++;
      if (!storedSet.has(serial)) lost++;
    } else {
      non2xx++;
      if (storedSet.has(serial)) storedAfterError++;
    }
  }
  const unanswered = run.sent.filter((serial) => !run.answers.has(serial));
  const storedUnanswered = unanswered.filter((serial) => storedSet.has(serial)).length;
  const foreign = stored.filter((serial) => !sentSet.has(serial)).length;
  const duplicates = stored.length - storedSet.size;
  const extra = storedAfterError + foreign + duplicates;
  const problems = [];
  if (lost > 0) problems.push(`${lost} acknowledged record(s) missing from the database`);
  if (extra > 0)
    problems.push(`${extra} extra row(s) (after an error answer ${storedAfterError}, never sent ${foreign}, duplicated ${duplicates})`);
  if (non2xx > 0) problems.push(`${non2xx} non-2xx answer(s)`);
  if (run.result.errors > 0) problems.push(`${run.result.errors} connection error(s)/timeout(s)`);
  if (unanswered.length > connections * reportsPerRequest)
    problems.push(`${unanswered.length} unanswered reports (more than the ${connections * reportsPerRequest} in flight at the stop)`);
  return {
    sent: run.sent.length,
    acked,
    non2xx,
    errors: run.result.errors,
    timeouts: run.result.timeouts,
    rows: stored.length,
    lost,
    extra,
    inFlightAtStop: unanswered.length,
    inFlightStored: storedUnanswered,
    problems,
  };
}

/** The figures one run contributes to the report; `reportsPerRequest` > 1 for a batch run. */
export function summarize(run, accounting, reportsPerRequest = 1) {
  const r = run.result;
  return {
    recordsPerSec: accounting.acked / r.duration,
    requestsPerSec: accounting.acked / reportsPerRequest / r.duration,
    durationSec: r.duration,
    latencyMs: { p50: r.latency.p50, p90: r.latency.p90, p99: r.latency.p99, max: r.latency.max, mean: r.latency.average },
    statusCodes: Object.fromEntries(Object.entries(r.statusCodeStats).map(([code, { count }]) => [code, count])),
    ...accounting,
    errorSamples: run.samples,
  };
}

/**
 * Bytes of the service's answer to a valid submission as the load sends it (hal_json), averaged over
 * `count` of the load's bodies: the pipeline floor answers with as many. Rows it stores are under
 * their own prefix and counted in no run.
 */
export async function answerBytes(baseUrl, token, templates, count = 16) {
  let total = 0;
  for (let serial = 0; serial < count; serial++) {
    const response = await fetch(new URL(RECORD_PATH, baseUrl), {
      method: 'POST',
      headers: recordHeaders(token),
      body: renderBody(templates[serial % templates.length], 'probe', serial),
    });
    const body = await response.arrayBuffer();
    if (response.status !== 201) throw new Error(`probe submission answered ${response.status}: ${Buffer.from(body).toString('utf8')}`);
    total += body.byteLength;
  }
  return Math.round(total / count);
}
