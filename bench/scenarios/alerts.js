// @ts-check
// Alerts (docs/alerts.md; figures in docs/benchmark.md#alerts): the single route of a user with an
// alert on every sensor (`--on all`, a webhook to a receiver in the bench that answers 200 at once)
// beside the same route of a user without one, in alternating rounds, on the stand's mix of bodies and
// on reports that each move their trap; then sprung records at a steady rate, each a new sensor, timed
// from the record's commit to the webhook's receipt; then a batch of sprung reports, until the last of
// its notifications is in (both after the same load of the user without the alert, for the route's own
// answer). Every notification the outbox wrote must reach the receiver once, signed: one missing,
// repeated or unsigned fails the run.
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { renderBody, trapTemplates } from '../bodies.js';
import { serialsStored } from '../database.js';
import { BATCH_PATH, RECORD_PATH, recordHeaders } from '../ingest-load.js';
import { alternatingRounds } from '../load-run.js';
import { pacedRun } from '../paced-load.js';
import { cpuSecondsOf } from '../processes.js';
import { fmt, median, percentile, perRound, rowCheck, sideSummary, times } from '../report.js';
import { passwordGrant } from '../token-load.js';
import { startWebhookReceiver } from '../webhook-receiver.js';

/** Reports in one request of the batch route (docs/interface.md#batches-of-reports). */
const MAX_BATCH = 1000;
/** How long the notifications of a phase may take to be delivered after its load, before the run says so. */
const SETTLE_MS = 120_000;
/** dev_id prefixes of the latency runs' and the batches' sensors, with the alert and without (the rounds' are the load runs' own). */
const PACED = { with: 'al-', without: 'pl-' };
const BATCHED = { with: 'ab-', without: 'pb-' };

/** @typedef {import('../webhook-receiver.js').WebhookReceiver} WebhookReceiver */
/** @typedef {{ db: import('mysql2/promise').Connection; alertId: number; receiver: WebhookReceiver }} Outbox */

/**
 * A new user of the service and a bearer token of it.
 * @param {import('../stand.js').Service} service
 */
async function userWithToken(service, name) {
  const username = `bench-${name}-${randomBytes(3).toString('hex')}`;
  const password = randomBytes(12).toString('hex');
  await service.cli(['user:create', '--username', username, '--password', password]);
  const { access_token: token } = await passwordGrant(service.url, { ...service.credentials, username, password });
  return { username, token };
}

/**
 * Waits (at most SETTLE_MS) until no notification of the sensors whose dev_id starts `devPrefix` is
 * pending and the receiver has every delivered one; how many were written, delivered and received.
 * @param {Outbox} outbox
 */
async function settled({ db, alertId, receiver }, devPrefix) {
  const deadline = Date.now() + SETTLE_MS;
  for (;;) {
    const [rows] = /** @type {any} */ (
      await db.query('SELECT id, status FROM alert_notifications WHERE alert_id = ? AND dev_id LIKE ?', [alertId, `${devPrefix}%`])
    );
    const arrivals = receiver.receipts.filter((receipt) => receipt.devId.startsWith(devPrefix));
    const received = new Set(arrivals.map((receipt) => receipt.id));
    const delivered = rows.filter((row) => row.status === 'delivered');
    const waiting = rows.some((row) => row.status === 'pending') || delivered.some((row) => !received.has(Number(row.id)));
    if (!waiting || Date.now() > deadline) {
      return {
        written: rows.length,
        delivered: delivered.length,
        received: received.size,
        /** Receipts by event. */
        events: arrivals.reduce((counts, receipt) => ({ ...counts, [receipt.event]: (counts[receipt.event] ?? 0) + 1 }), {}),
        lastArrival: arrivals.reduce((latest, receipt) => Math.max(latest, receipt.at), -Infinity),
        timedOut: waiting,
      };
    }
    await sleep(100);
  }
}

/**
 * The stored rows against the answers, report by report (as bench/ingest-load.js accounts a load run):
 * a 201's report stored, none answered otherwise stored, but for a 503 that says it may have been.
 * @param {Array<{ index: number; status: number; text: string }>} answers  one per report
 */
async function storedProblems(db, devPrefix, answers, what) {
  const stored = new Set(await serialsStored(db, devPrefix.replace(/-$/, '')));
  const lost = answers.filter((answer) => answer.status === 201 && !stored.has(answer.index)).length;
  const extra = answers.filter((answer) => answer.status !== 201 && stored.has(answer.index) && !/may have been stored/.test(answer.text));
  const [first] = extra;
  return [
    ...(lost > 0 ? [`alerts: ${lost} ${what} answered 201 and not stored`] : []),
    ...(first ? [`alerts: ${extra.length} ${what} stored after an answer saying otherwise (${first.status} ${first.text})`] : []),
  ];
}

/**
 * Every notification of the alert delivered and received exactly once with the alert's signature,
 * and nothing received that the outbox did not write.
 * @param {Outbox} outbox
 */
async function deliveryProblems(outbox) {
  const { db, alertId, receiver } = outbox;
  // What the alerts' clock raised after a phase settled (the mix's past sprung_deadline) is sent too.
  await settled(outbox, '');
  const [rows] = /** @type {any} */ (
    await db.query('SELECT id, status, last_error FROM alert_notifications WHERE alert_id = ?', [alertId])
  );
  /** @type {Map<number, number>} */
  const arrivals = new Map();
  for (const receipt of receiver.receipts) arrivals.set(receipt.id, (arrivals.get(receipt.id) ?? 0) + 1);
  const written = new Set(rows.map((row) => Number(row.id)));
  const undelivered = rows.filter((row) => row.status !== 'delivered');
  const missing = rows.filter((row) => !arrivals.has(Number(row.id))).map((row) => row.id);
  const repeated = [...arrivals].filter(([, count]) => count > 1).map(([id]) => id);
  const unknown = [...arrivals.keys()].filter((id) => !written.has(id));
  const unsigned = receiver.receipts.filter((receipt) => !receipt.signed).length;
  const ids = (list) => list.slice(0, 5).join(', ') + (list.length > 5 ? ', …' : '');
  return [
    ...(undelivered.length > 0
      ? [
          `alerts: ${undelivered.length} notification(s) not delivered (${undelivered[0].status}` +
            `${undelivered[0].last_error ? `: ${undelivered[0].last_error}` : ''})`,
        ]
      : []),
    ...(missing.length > 0 ? [`alerts: ${missing.length} notification(s) written and never received (ids ${ids(missing)})`] : []),
    ...(repeated.length > 0 ? [`alerts: ${repeated.length} notification(s) received more than once (ids ${ids(repeated)})`] : []),
    ...(unknown.length > 0 ? [`alerts: ${unknown.length} request(s) received that the outbox never wrote (ids ${ids(unknown)})`] : []),
    ...(unsigned > 0 ? [`alerts: ${unsigned} request(s) received without the alert's signature`] : []),
  ];
}

/** The two sets of bodies of the rounds: keys of `rounds` and `summaries` are `<bodies><Without|With>`. */
const BODIES = /** @type {const} */ (['mix', 'traps']);

/** The baseline's sides' keys begin with it. */
const BASELINE = 'baseline.';

/** The sets of bodies `--alerts-bodies` names, in BODIES' order. */
function bodiesOf(options) {
  const names = String(options.alertsBodies).split(',');
  const unknown = names.filter((name) => !BODIES.includes(/** @type {any} */ (name)));
  if (unknown.length > 0) throw new Error(`--alerts-bodies: unknown ${unknown.join(', ')}; known: ${BODIES.join(', ')}`);
  return BODIES.filter((bodies) => names.includes(bodies));
}

/**
 * Two new users of `service`, one with an alert on all of its sensors to a webhook receiver of its own.
 * @param {import('../stand.js').Service} service
 * @param {import('mysql2/promise').Connection} db  the database `service` writes
 * @returns {Promise<Alerted & { close: () => Promise<void> }>}
 */
async function underAlert(service, db, tag, log) {
  const secret = randomBytes(24).toString('hex');
  const receiver = await startWebhookReceiver(secret);
  try {
    const alerting = await userWithToken(service, 'alerts');
    const plain = await userWithToken(service, 'plain');
    const { alert_id: alertId } = await service.cli([
      'alert:create',
      '--user',
      alerting.username,
      '--on',
      'all',
      '--webhook',
      receiver.url,
      '--secret',
      secret,
    ]);
    log(
      `alerts: ${service.name}: alert ${alertId} on every sensor of ${alerting.username}, to ${receiver.url}; ${plain.username} has none`,
    );
    return { tag, service, outbox: { db, alertId, receiver }, users: { with: alerting, without: plain }, close: () => receiver.close() };
  } catch (error) {
    await receiver.close();
    throw error;
  }
}

/**
 * A service under the alert: its outbox (the alert, its receiver, the database the service writes)
 * and its two users, with the alert and without; `tag` keys its sides ('' this tree, `baseline.` the
 * baseline's).
 * @typedef {{ tag: string; service: import('../stand.js').Service; outbox: Outbox; users: { with: { token: string }; without: { token: string } } }} Alerted
 */

/**
 * The single route with and without the alert, alternating, on two sets of bodies: the stand's mix
 * (bench/bodies.js: a report is now and then its trap's latest and changes it) and reports that each
 * move their trap (every report its sensor's latest, Sprung and Set in turn); with `--baseline`, the
 * baseline's two users in the same rounds. After each run, until its notifications are in, so that
 * no run pays for the one before it.
 * @param {any} bench
 * @param {Alerted[]} services
 */
async function ingestionBeside({ stand, options, loadRun, log }, services) {
  const templates = { mix: stand.templates, traps: trapTemplates(new Date()) };
  /** What each run's notifications came to, by the run's prefix. */
  const delivery = new Map();
  /** The service and outbox of each side's server. */
  const alertedOf = new Map();
  /** @param {import('../load-run.js').LoadRun} run */
  const runAndDeliver = async (run) => {
    const { service, outbox } = alertedOf.get(run.server);
    const cpuBefore = cpuSecondsOf(service.child.pid);
    const began = performance.now();
    const summary = await loadRun(run);
    const notifications = await settled(outbox, `${summary.prefix}-`);
    const cpuMs = ((cpuSecondsOf(service.child.pid) - cpuBefore) * 1000) / Math.max(1, summary.acked);
    const figures = {
      ...notifications,
      // wrk stops `durationSec` after it started, a few ms after `began`.
      lastAfterLoadSec: Math.max(0, (notifications.lastArrival - began) / 1000 - run.durationSec),
      cpuServerWithDeliveryMs: Math.round(cpuMs * 1000) / 1000,
    };
    delivery.set(summary.prefix, figures);
    if (notifications.written > 0)
      log(
        `  ${run.label}: notifications written ${figures.written}, delivered ${figures.delivered}, received ${figures.received};` +
          ` the last ${figures.lastAfterLoadSec.toFixed(2)} s after the load; service CPU ms/request with the deliveries ${figures.cpuServerWithDeliveryMs}` +
          (figures.timedOut ? `; NOT ALL IN after ${SETTLE_MS / 1000} s` : ''),
      );
    return summary;
  };
  /** @type {Array<[string, import('../load-run.js').LoadSide]>} */
  const sides = bodiesOf(options).flatMap((bodies) =>
    services.flatMap((alerted) =>
      /** @type {const} */ (['without', 'with']).map((side) => {
        const server = { ...alerted.service, token: alerted.users[side].token };
        alertedOf.set(server, alerted);
        const label = `${alerted.tag ? `${options.baseline} ` : ''}${bodies}, ${side} alerts`;
        return /** @type {[string, import('../load-run.js').LoadSide]} */ ([
          `${alerted.tag}${bodies}${side === 'with' ? 'With' : 'Without'}`,
          { connections: options.connections, templates: templates[bodies], server, label },
        ]);
      }),
    ),
  );
  const rounds = await alternatingRounds(runAndDeliver, sides, {
    rounds: options.rounds,
    durationSec: options.alertsDuration,
    warmupSec: options.warmup,
  });
  const side = (key) => {
    const runs = rounds[key] ?? [];
    const figures = runs.map((run) => delivery.get(run.prefix));
    const sum = (name) => figures.reduce((total, f) => total + f[name], 0);
    return {
      ...sideSummary(runs),
      cpuServerWithDeliveryMs: median(figures.map((f) => f.cpuServerWithDeliveryMs)),
      notifications: { written: sum('written'), delivered: sum('delivered'), received: sum('received') },
      events: figures.reduce((counts, f) => {
        for (const [event, count] of Object.entries(f.events)) counts[event] = (counts[event] ?? 0) + count;
        return counts;
      }, {}),
      worstLastAfterLoadSec: Math.max(0, ...figures.map((f) => f.lastAfterLoadSec)),
    };
  };
  /** @type {Record<string, ReturnType<typeof side>>} */
  const summaries = Object.fromEntries(sides.map(([key]) => [key, side(key)]));
  const ratio = (key) => (summaries[`${key}With`]?.requestsPerSec ?? NaN) / (summaries[`${key}Without`]?.requestsPerSec ?? NaN);
  return {
    summaries,
    ratios: { mix: ratio('mix'), traps: ratio('traps') },
    baselineRatios: services.length > 1 ? { mix: ratio(`${BASELINE}mix`), traps: ratio(`${BASELINE}traps`) } : null,
    rounds,
    problems: Object.values(rounds).flatMap((runs) => runs.flatMap((run) => run.problems.map((problem) => `alerts: ${problem}`))),
  };
}

/**
 * Sprung records at `--alerts-rate` per second, each a new sensor: first of the user without the
 * alert (what the route's answer takes at that rate alone), then of the user with it, each record's
 * notification timed from the record's 201 and from its send.
 */
async function commitToReceipt({ stand, options, log }, outbox, users) {
  const service = /** @type {import('../stand.js').Service} */ (stand.service);
  const [sprung] = trapTemplates(new Date(), 1);
  const count = Math.round(options.alertsRate * options.alertsLatencyDuration);
  const paced = (side) => {
    log(`alerts: ${count} sprung records at ${options.alertsRate}/s, each a new sensor, ${side} the alert`);
    return pacedRun({
      url: new URL(RECORD_PATH, service.url).href,
      headers: recordHeaders(users[side].token),
      rate: options.alertsRate,
      count,
      body: (index) => renderBody(sprung, `${PACED[side]}${index}`, index),
    });
  };
  const alone = await paced('without');
  const answers = await paced('with');
  const notifications = await settled(outbox, PACED.with);
  /** @type {Map<number, number>} the first `sprung` receipt of each request's sensor */
  const receivedAt = new Map();
  for (const receipt of outbox.receiver.receipts) {
    if (!receipt.devId.startsWith(PACED.with) || receipt.event !== 'sprung') continue;
    const index = Number(receipt.devId.slice(PACED.with.length).split('-')[0]);
    if (!receivedAt.has(index)) receivedAt.set(index, receipt.at);
  }
  const acked = answers.filter((answer) => answer.status === 201);
  const unanswered = acked.filter((answer) => !receivedAt.has(answer.index)).length;
  const spread = (get) => {
    const sorted = acked
      .filter((answer) => receivedAt.has(answer.index))
      .map(get)
      .sort((a, b) => a - b);
    return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) ?? NaN };
  };
  const refused = [...alone, ...answers].filter((answer) => answer.status !== 201);
  const [firstRefused] = refused;
  const aloneAcked = alone.filter((answer) => answer.status === 201);
  const aloneMs = aloneAcked.map((answer) => answer.answeredAt - answer.sentAt).sort((a, b) => a - b);
  const measured = {
    count,
    without: {
      acked: aloneAcked.length,
      answerMs: { p50: percentile(aloneMs, 50), p99: percentile(aloneMs, 99), max: aloneMs.at(-1) ?? NaN },
      latestSendMs: alone.reduce((latest, answer) => Math.max(latest, answer.lateMs), 0),
    },
    rate: options.alertsRate,
    acked: acked.length,
    notifications,
    // The commit lies between the request's send and the 201's arrival.
    fromAnswerMs: spread((answer) => /** @type {number} */ (receivedAt.get(answer.index)) - answer.answeredAt),
    fromSendMs: spread((answer) => /** @type {number} */ (receivedAt.get(answer.index)) - answer.sentAt),
    answerMs: spread((answer) => answer.answeredAt - answer.sentAt),
    latestSendMs: answers.reduce((latest, answer) => Math.max(latest, answer.lateMs), 0),
  };
  log(
    `alerts: without the alert ${aloneAcked.length} 201s, p50 ${fmt(measured.without.answerMs.p50, 1)} ms, p99 ${fmt(measured.without.answerMs.p99, 1)} ms;` +
      ` with it ${acked.length} 201s, ${notifications.received} notifications received; from the 201 p50 ${fmt(measured.fromAnswerMs.p50, 1)} ms,` +
      ` p99 ${fmt(measured.fromAnswerMs.p99, 1)} ms, max ${fmt(measured.fromAnswerMs.max, 1)} ms; from the send p99 ${fmt(measured.fromSendMs.p99, 1)} ms`,
  );
  return {
    measured,
    problems: [
      ...(firstRefused
        ? [
            `alerts: ${refused.length} sprung record(s) answered other than 201 (without the alert ${alone.length - aloneAcked.length},` +
              ` with it ${answers.length - acked.length}; ${firstRefused.status} ${firstRefused.text})`,
          ]
        : []),
      ...(unanswered > 0 ? [`alerts: ${unanswered} sprung record(s) answered 201 whose notification never arrived`] : []),
      ...(await storedProblems(stand.db, PACED.without, alone, 'sprung record(s) without the alert')),
      ...(await storedProblems(stand.db, PACED.with, answers, 'sprung record(s) with the alert')),
    ],
  };
}

/**
 * The batch route's answer to `reports` (their bodies) in requests of at most MAX_BATCH sent at once:
 * each request's status and when it came, from the send.
 */
async function sendBatches(url, token, reports) {
  const requests = [];
  for (let first = 0; first < reports.length; first += MAX_BATCH) requests.push(`[${reports.slice(first, first + MAX_BATCH).join(',')}]`);
  const sentAt = performance.now();
  const answers = await Promise.all(
    requests.map(async (body) => {
      try {
        const response = await fetch(url, { method: 'POST', headers: recordHeaders(token), body, signal: AbortSignal.timeout(120_000) });
        const text = await response.text();
        return { status: response.status, afterMs: performance.now() - sentAt, text: text.slice(0, 300) };
      } catch (error) {
        return { status: 0, afterMs: performance.now() - sentAt, text: String(error) };
      }
    }),
  );
  const perReport = reports.map((_, index) => ({ index, ...answers[Math.floor(index / MAX_BATCH)] }));
  return { sentAt, requests: requests.length, answers, perReport, answeredMs: Math.max(...answers.map((answer) => answer.afterMs)) };
}

/**
 * `--alerts-batch` sprung reports of as many new sensors on the batch route, of the user without the
 * alert (the route alone), then of the user with it, until the last notification is in.
 */
async function sprungBatch({ stand, options, log }, outbox, users) {
  const service = /** @type {import('../stand.js').Service} */ (stand.service);
  const [sprung] = trapTemplates(new Date(), 1);
  const total = options.alertsBatch;
  const url = new URL(BATCH_PATH, service.url).href;
  const reports = (side) => Array.from({ length: total }, (_, index) => renderBody(sprung, `${BATCHED[side]}${index}`, index));
  log(`alerts: ${total} sprung reports at once on the batch route, without the alert, then with it`);
  const alone = await sendBatches(url, users.without.token, reports('without'));
  const { sentAt, requests, answers, perReport, answeredMs } = await sendBatches(url, users.with.token, reports('with'));
  const notifications = await settled(outbox, BATCHED.with);
  const arrivals = outbox.receiver.receipts.filter((receipt) => receipt.devId.startsWith(BATCHED.with) && receipt.event === 'sprung');
  const sensors = new Set(arrivals.map((receipt) => receipt.devId)).size;
  const measured = {
    reports: total,
    requests,
    notifications,
    answeredWithoutMs: alone.answeredMs,
    statusesWithout: alone.answers.map((answer) => answer.status),
    answeredMs,
    statuses: answers.map((answer) => answer.status),
    firstReceivedMs: arrivals.reduce((first, receipt) => Math.min(first, receipt.at), Infinity) - sentAt,
    allReceivedMs: notifications.lastArrival - sentAt,
  };
  log(
    `alerts: batch without the alert answered after ${fmt(alone.answeredMs)} ms (${alone.answers.map((answer) => answer.status).join(', ')});` +
      ` with it after ${fmt(measured.answeredMs)} ms (${answers.map((answer) => answer.status).join(', ')}); ${sensors} sensors' notifications received,` +
      ` the first after ${fmt(measured.firstReceivedMs)} ms, the last after ${fmt(measured.allReceivedMs)} ms`,
  );
  const refused = [...alone.answers, ...answers].filter((answer) => answer.status !== 201);
  const [firstRefused] = refused;
  return {
    measured,
    problems: [
      ...(firstRefused
        ? [`alerts: ${refused.length} batch request(s) answered other than 201 (${firstRefused.status} ${firstRefused.text})`]
        : []),
      ...(await storedProblems(stand.db, BATCHED.without, alone.perReport, 'batched report(s) without the alert')),
      ...(await storedProblems(stand.db, BATCHED.with, perReport, 'batched report(s) with the alert')),
      ...(answers.every((answer) => answer.status === 201) && sensors !== total
        ? [`alerts: ${sensors} of the batch's ${total} sprung sensors were notified`]
        : []),
    ],
  };
}

/** The scenario's markdown table. */
function alertsTable({ options, machine, ingestion, latency, batch }) {
  const lines = [];
  if (ingestion) {
    const { summaries, rounds } = ingestion;
    // Each set of bodies on this tree, then on the baseline.
    const shown = BODIES.flatMap((bodies) => ['', BASELINE].map((tag) => `${tag}${bodies}`)).filter((key) => summaries[`${key}With`]);
    const named = (key) => (key.startsWith(BASELINE) ? `${key.slice(BASELINE.length)} (${options.baseline})` : key);
    /**
     * One row: each side's figure, and with / without (or what `between` makes of the two) for each set of bodies.
     * @param {string} label
     * @param {(summary: any) => string} show
     * @param {((summary: any) => number) | null} [ratioOf]
     * @param {((without: any, alerted: any) => string) | null} [between]
     */
    const row = (label, show, ratioOf = null, between = null) => {
      const cells = shown.flatMap((key) => {
        const without = summaries[`${key}Without`];
        const alerted = summaries[`${key}With`];
        const third = between ? between(without, alerted) : ratioOf ? times(ratioOf(alerted) / ratioOf(without)) : '';
        return [show(without), show(alerted), third];
      });
      return `| ${label} | ${cells.join(' | ')} |`;
    };
    /** What one notification added, (with − without) / notifications per 201. */
    const perNotification = (get, digits) => (without, alerted) =>
      fmt((get(alerted) - get(without)) / (alerted.notifications.written / alerted.acked), digits);
    const counts = (s) => `${s.notifications.written}; ${s.notifications.delivered}; ${s.notifications.received}`;
    lines.push(
      `Alerts: the single route with an alert on every sensor of its user (--on all, a webhook to a receiver in the bench answering 200)` +
        ` beside the route without, on the stand's mix of bodies and on reports that each move their trap (Sprung and Set in turn` +
        ` over 200 sensors); ${options.connections} connections, ${options.rounds} rounds x ${options.alertsDuration} s per side, alternating (${machine}):`,
      '',
      `| | ${shown.map((key) => `${named(key)}, without alerts | ${named(key)}, with alerts | with / without`).join(' | ')} |`,
      `|---|${shown.map(() => '---:|---:|---:|').join('')}`,
      row(
        'requests/s (median of rounds; target with / without ≥ 0.95x)',
        (s) => fmt(s.requestsPerSec),
        (s) => s.requestsPerSec,
      ),
      row(
        'p50 latency ms (median of rounds)',
        (s) => fmt(s.p50Ms, 1),
        (s) => s.p50Ms,
      ),
      row(
        'p99 latency ms (median of rounds)',
        (s) => fmt(s.p99Ms, 1),
        (s) => s.p99Ms,
      ),
      row(
        'CPU ms per request, service (median)',
        (s) => fmt(s.cpuServerMs, 3),
        (s) => s.cpuServerMs,
      ),
      row(
        'CPU ms per request, service, with the deliveries after the load (median)',
        (s) => fmt(s.cpuServerWithDeliveryMs, 3),
        (s) => s.cpuServerWithDeliveryMs,
      ),
      row(
        'CPU ms per request, MariaDB (median)',
        (s) => fmt(s.cpuDatabaseMs, 3),
        (s) => s.cpuDatabaseMs,
      ),
      row('SQL statements per stored row (server-wide count)', (s) => fmt(s.statementsPerRow, 2)),
      row(
        "a notification's cost, (with − without) / notifications per 201: service CPU ms (third column)",
        () => '',
        null,
        perNotification((s) => s.cpuServerMs, 3),
      ),
      row(
        'the same, MariaDB CPU ms',
        () => '',
        null,
        perNotification((s) => s.cpuDatabaseMs, 3),
      ),
      row(
        'the same, SQL statements (server-wide count)',
        () => '',
        null,
        perNotification((s) => s.statementsPerRow, 2),
      ),
      row('notifications written; delivered; received (measured rounds)', counts),
      row('notifications per 201', (s) => fmt(s.notifications.written / s.acked, 2)),
      row('received by event', (s) =>
        Object.entries(s.events)
          .map(([event, count]) => `${event} ${count}`)
          .join(', '),
      ),
      row('the last notification after the load stopped, s (worst round)', (s) => fmt(s.worstLastAfterLoadSec, 2)),
      row('rows = 201s + in-flight at stop', rowCheck),
      '',
      `Per round, requests/s: ${shown
        .flatMap((key) =>
          ['Without', 'With'].map((side) => `${named(key)} ${side.toLowerCase()} ${perRound(rounds[`${key}${side}`] ?? [])}`),
        )
        .join('; ')}.`,
    );
  }
  if (latency) {
    const row = (from, s) => `| ${from} | ${fmt(s.p50, 1)} | ${fmt(s.p99, 1)} | ${fmt(s.max, 1)} |`;
    lines.push(
      ...(lines.length ? [''] : []),
      `From a Sprung record's commit to the webhook's receipt: ${latency.rate} sprung records/s for ${options.alertsLatencyDuration} s,` +
        ` each a new sensor, open loop (the latest request left ${fmt(latency.latestSendMs, 1)} ms after its turn). The commit lies between` +
        ` the request's send and the 201's arrival:`,
      '',
      '| receipt at the webhook, from | p50 ms | p99 ms | max ms |',
      '|---|---:|---:|---:|',
      row("the 201's arrival (a lower bound)", latency.fromAnswerMs),
      row("the request's send (an upper bound; target p99 under 1 s)", latency.fromSendMs),
      row('(the 201 itself, from the send)', latency.answerMs),
      row(`(the 201 itself, from the send, of the user without the alert: ${latency.without.acked} 201s)`, latency.without.answerMs),
      '',
      `${latency.acked} of ${latency.count} answered 201; notifications written ${latency.notifications.written}, delivered ${latency.notifications.delivered}, received ${latency.notifications.received}.`,
    );
  }
  if (batch) {
    lines.push(
      ...(lines.length ? [''] : []),
      `A batch of ${batch.reports} sprung reports of as many new sensors (${batch.requests} request(s) of at most ${MAX_BATCH}, sent at once):` +
        ` answered ${batch.statuses.join(', ')} after ${fmt(batch.answeredMs)} ms (the same reports of the user without the alert:` +
        ` ${batch.statusesWithout.join(', ')} after ${fmt(batch.answeredWithoutMs)} ms); the first notification received after ${fmt(batch.firstReceivedMs)} ms,` +
        ` the last after ${fmt(batch.allReceivedMs)} ms (from the send); notifications written ${batch.notifications.written},` +
        ` delivered ${batch.notifications.delivered}, received ${batch.notifications.received}.`,
    );
  }
  return lines.join('\n');
}

/** @type {import('./index.js').Scenario} */
export default {
  name: 'alerts',
  load: true,
  about:
    "ingestion with an alert on every sensor beside without; a Sprung record's commit to the webhook's receipt; a batch of sprung reports",
  options: [
    {
      name: 'alerts-duration',
      env: 'BENCH_ALERTS_DURATION',
      default: 10,
      help: 'seconds per round and side of the single route with and without alerts (--rounds, after a warm-up); 0 skips it',
    },
    {
      name: 'alerts-bodies',
      env: 'BENCH_ALERTS_BODIES',
      kind: 'text',
      default: 'mix,traps',
      help: "the rounds' sets of bodies, comma-separated: mix (the stand's), traps (every report moves its trap)",
    },
    { name: 'alerts-rate', env: 'BENCH_ALERTS_RATE', default: 100, help: 'sprung records per second of the latency run' },
    {
      name: 'alerts-latency-duration',
      env: 'BENCH_ALERTS_LATENCY_DURATION',
      default: 30,
      help: "seconds of sprung records at --alerts-rate, each timed from its commit to the webhook's receipt; 0 skips it",
    },
    {
      name: 'alerts-batch',
      env: 'BENCH_ALERTS_BATCH',
      default: 1000,
      help: `sprung reports sent to the batch route at once (requests of at most ${MAX_BATCH}); 0 skips it`,
    },
  ],

  async run(bench) {
    const { stand, options, log } = bench;
    const service = stand.service;
    if (!service || (options.alertsDuration <= 0 && options.alertsLatencyDuration <= 0 && options.alertsBatch <= 0)) return null;
    // The baseline takes part in the rounds only; the latency run and the batch are this tree's.
    const baseline = options.alertsDuration > 0 ? await stand.baseline() : null;
    /** @type {Array<Alerted & { close: () => Promise<void> }>} */
    const alerted = [];
    const problems = [];
    try {
      const mine = await underAlert(service, stand.db, '', log);
      alerted.push(mine);
      const { outbox, users } = mine;
      if (baseline) alerted.push(await underAlert(baseline, baseline.db, BASELINE, log));
      const ingestion = options.alertsDuration > 0 ? await ingestionBeside(bench, alerted) : null;
      const latency = options.alertsLatencyDuration > 0 && options.alertsRate > 0 ? await commitToReceipt(bench, outbox, users) : null;
      const batch = options.alertsBatch > 0 ? await sprungBatch(bench, outbox, users) : null;
      problems.push(...(ingestion?.problems ?? []), ...(latency?.problems ?? []), ...(batch?.problems ?? []));
      for (const { outbox: each, service: itself } of alerted) {
        problems.push(...(await deliveryProblems(each)));
        // Later scenarios load the service without it.
        await itself.cli(['alert:delete', '--id', String(each.alertId)]).catch((error) => problems.push(`alerts: ${error.message}`));
      }
      const json = {
        ingestion: ingestion && {
          summaries: ingestion.summaries,
          ratios: ingestion.ratios,
          baselineRatios: ingestion.baselineRatios,
          rounds: ingestion.rounds,
        },
        latency: latency?.measured ?? null,
        batch: batch?.measured ?? null,
      };
      return {
        json,
        problems,
        table: () => alertsTable({ options, machine: stand.machine, ...json }),
      };
    } finally {
      for (const { close } of alerted) await close();
    }
  },
};
