// @ts-check
// The read side's scenarios (docs/interface.md#sensors, #get-api-sensorsensor-records): a table of N
// records (default 1,000,000) of one user over S devices (default 10,000) is written straight into
// MariaDB, the sensor table is filled by the real migration (reverted and run again through the
// TypeORM CLI), and then a freshly started service is timed listing the sensors, serving pages of
// 1,000 records, and streaming the whole table as CSV while its resident memory is sampled.
import { randomUUID } from 'node:crypto';
import { median } from './report.js';
import { memoryOf } from './processes.js';

const SEED_BATCH = 2000;
// A body of the size devices send, so that rows take the room on disk they take in production.
const BODY = JSON.stringify({
  dev_id: 'seed',
  metadata: { time: '2026-01-01T00:00:00Z', gateways: [{ gtw_id: 'eui-b827ebfffe0a1b2c', rssi: -97, snr: 9.25, channel: 2 }] },
  payload_fields: {
    type: [{ target_id: 'sensor_report' }],
    field_event: [{ value: 'Heartbeat' }],
    field_status: [{ value: 'Set' }],
    field_network: [{ value: 'ttn' }],
    field_gateway: [{ value: 'B8:27:EB:0A:1B:2C' }],
    field_sequence: [{ value: 1 }],
    field_counter: [{ value: 0 }],
    field_battery_voltage: [{ value: 3.6 }],
    field_tilt_sensor: [{ value: 'False' }],
    field_timeout: [{ value: 3600 }],
  },
  counter: 0,
  port: 1,
});

const COLUMNS = [
  'nid',
  'uuid',
  'vid',
  'type',
  'langcode',
  'status',
  'promote',
  'sticky',
  'default_langcode',
  'revision_translation_affected',
  'uid',
  'revision_uid',
  'title',
  'created',
  'changed',
  'revision_timestamp',
  'field_battery_voltage',
  'field_counter',
  'field_date',
  'field_event',
  'field_gateway',
  'field_network',
  'field_rssi',
  'field_sensor_id',
  'field_sequence',
  'field_snr',
  'field_status',
  'field_tilt_sensor',
  'field_timeout',
  'request_body',
];

const EVENTS = ['Heartbeat', 'Heartbeat', 'Heartbeat', 'Sprung', 'Set', 'Vibration'];

/**
 * Writes `records` rows for `uid` over `sensors` devices, oldest first, spread over the `days` before
 * `now` (every one long settled). Returns the seconds it took.
 * @param {import('mysql2/promise').Connection} db
 */
export async function seedRecords(db, { uid, records, sensors, now = Date.now(), days = 30, log = (_message) => {} }) {
  const started = Date.now();
  const [[{ next }]] = /** @type {any} */ (await db.query('SELECT COALESCE(MAX(nid), 0) + 1 AS next FROM sensor_report'));
  const firstNid = Number(next);
  const span = days * 86_400_000;
  const head = `INSERT INTO sensor_report (${COLUMNS.join(', ')}) VALUES `;
  const row = `(${COLUMNS.map(() => '?').join(', ')})`;
  for (let offset = 0; offset < records; offset += SEED_BATCH) {
    const count = Math.min(SEED_BATCH, records - offset);
    const values = [];
    for (let i = offset; i < offset + count; i++) {
      const nid = firstNid + i;
      const created = new Date(now - span + Math.floor(((i / records) * span) / 1000) * 1000);
      const device = `seed-${String(i % sensors).padStart(6, '0')}`;
      const event = EVENTS[i % EVENTS.length];
      values.push(
        nid,
        randomUUID(),
        nid,
        'sensor_report',
        'en',
        1,
        0,
        0,
        1,
        1,
        uid,
        uid,
        `Sensor report: ${device} (${created.toISOString()})`,
        created,
        created,
        created,
        (3 + (i % 700) / 1000).toFixed(3),
        i % 500,
        new Date(created.getTime() - 5000),
        event,
        'B8:27:EB:0A:1B:2C',
        i % 7 === 0 ? '-net, "quoted"' : 'ttn',
        -40 - (i % 80),
        device,
        i,
        ((i % 200) / 10 - 10).toFixed(3),
        event === 'Sprung' || event === 'Set' ? event : null,
        'False',
        i % 97 === 0 ? -1 : 3600 * (1 + (i % 24)),
        BODY,
      );
    }
    await db.query(head + Array.from({ length: count }, () => row).join(', '), values);
    if ((offset / SEED_BATCH) % 50 === 0) log(`seeded ${offset + count} of ${records} records`);
  }
  return (Date.now() - started) / 1000;
}

/** GETs `path` `times` times; the median and each time in ms, and the size of the last answer. */
async function timed(baseUrl, token, path, times) {
  const ms = [];
  let bytes = 0;
  let status = 0;
  for (let i = 0; i < times; i++) {
    const started = process.hrtime.bigint();
    const response = await fetch(new URL(path, baseUrl), { headers: { Authorization: `Bearer ${token}` } });
    const body = Buffer.from(await response.arrayBuffer());
    ms.push(Number(process.hrtime.bigint() - started) / 1e6);
    bytes = body.length;
    status = response.status;
    if (status !== 200) throw new Error(`GET ${path} answered ${status}: ${body.toString('utf8').slice(0, 300)}`);
  }
  return { path, medianMs: median(ms), ms, bytes, status };
}

/**
 * Streams `path` to the end without keeping it: lines, bytes, time, and the service's resident memory
 * sampled every 100 ms meanwhile.
 */
async function streamed(baseUrl, token, path, pid) {
  const before = memoryOf(pid);
  let peakRssMiB = before.rssMiB;
  const sampler = setInterval(() => {
    const { rssMiB } = memoryOf(pid);
    if (rssMiB > peakRssMiB) peakRssMiB = rssMiB;
  }, 100);
  const started = process.hrtime.bigint();
  let bytes = 0;
  let lines = 0;
  try {
    const response = await fetch(new URL(path, baseUrl), { headers: { Authorization: `Bearer ${token}` } });
    if (response.status !== 200 || !response.body) throw new Error(`GET ${path} answered ${response.status}`);
    for await (const chunk of response.body) {
      bytes += chunk.length;
      for (const byte of chunk) if (byte === 10) lines++;
    }
  } finally {
    clearInterval(sampler);
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const after = memoryOf(pid);
  return { path, seconds, bytes, lines, rowsPerSec: (lines - 1) / seconds, rssBeforeMiB: before.rssMiB, peakRssMiB, hwmMiB: after.hwmMiB };
}

/** The timed scenarios against a service whose database holds the seeded table. */
export async function readScenarios({ baseUrl, token, pid, repeats = 5, log = (_message) => {} }) {
  const lists = [];
  for (const path of [
    '/api-sensor/sensors?limit=10000',
    '/api-sensor/sensors?limit=10000&state=overdue',
    '/api-sensor/sensors?limit=10000&sprung=true',
    '/api-sensor/sensors?_format=csv',
  ]) {
    lists.push(await timed(baseUrl, token, path, repeats));
    log(`${path}: median ${lists.at(-1)?.medianMs.toFixed(1)} ms`);
  }
  // From the start, from the middle of the table, and the last page (the settled end).
  const middle = encodeURIComponent(new Date(Date.now() - 15 * 86_400_000).toISOString().slice(0, 19) + '+00:00');
  const recent = encodeURIComponent(new Date(Date.now() - 3600_000).toISOString().slice(0, 19) + '+00:00');
  const pages = [];
  for (const path of [
    '/api-sensor/sensor-records?limit=1000&_format=json',
    `/api-sensor/sensor-records?limit=1000&_format=json&changed_since=${middle}`,
    `/api-sensor/sensor-records?limit=1000&_format=json&changed_since=${recent}`,
    `/api-sensor/sensor-records?limit=1000&_format=hal_json&changed_since=${middle}`,
    `/api-sensor/sensor-records?limit=1000&_format=xml&changed_since=${middle}`,
    `/api-sensor/sensor-records?limit=1000&_format=csv&changed_since=${middle}`,
    `/api-sensor/sensor-records?limit=10000&_format=json&changed_since=${middle}`,
  ]) {
    pages.push(await timed(baseUrl, token, path, repeats));
    log(`${path}: median ${pages.at(-1)?.medianMs.toFixed(1)} ms`);
  }
  log('streaming the whole table as CSV');
  const exported = await streamed(baseUrl, token, '/api-sensor/sensor-records?_format=csv', pid);
  log(`export: ${exported.lines - 1} rows in ${exported.seconds.toFixed(1)} s, peak RSS ${exported.peakRssMiB.toFixed(0)} MiB`);
  return { lists, pages, exported };
}

/** The plans MariaDB chooses for the read side's queries (docs/benchmark.md#the-read-side quotes them). */
export async function explainPlans(db, uid) {
  const cutoff = new Date(Date.now() - 900_000);
  const since = new Date(Date.now() - 15 * 86_400_000);
  const horizon = new Date(Date.now() - 5000);
  const queries = {
    'sensor list': ['SELECT * FROM sensor WHERE uid = ? AND dev_id > ? ORDER BY dev_id LIMIT 1001', [uid, 'seed-000100']],
    'sensor list, state=overdue': ['SELECT * FROM sensor WHERE uid = ? AND heartbeat_due < ? ORDER BY dev_id LIMIT 1001', [uid, cutoff]],
    'sensor list, state=no_heartbeat': ['SELECT * FROM sensor WHERE uid = ? AND heartbeat_period < 0 ORDER BY dev_id LIMIT 1001', [uid]],
    'sensor list, sprung=true': ['SELECT * FROM sensor WHERE uid = ? AND sprung = 1 ORDER BY dev_id LIMIT 1001', [uid]],
    'one sensor': ['SELECT * FROM sensor WHERE uid = ? AND dev_id = ?', [uid, 'seed-000042']],
    'its latest records': [
      'SELECT * FROM sensor_report WHERE field_sensor_id = ? AND uid = ? ORDER BY field_date DESC, nid DESC LIMIT 10',
      ['seed-000042', uid],
    ],
    'feed: the keys of a page': [
      'SELECT nid, changed FROM sensor_report WHERE uid = ? AND changed >= ? AND (changed > ? OR nid > ?) AND changed <= ? ORDER BY changed, nid LIMIT 1001',
      [uid, since, since, 0, horizon],
    ],
    'feed: a chunk of records': [
      'SELECT * FROM sensor_report WHERE uid = ? AND changed >= ? AND (changed > ? OR nid > ?) AND changed <= ? AND changed <= ? AND (changed < ? OR nid <= ?) ORDER BY changed, nid LIMIT 500',
      [uid, since, since, 0, horizon, horizon, horizon, 2_000_000_000],
    ],
    gauges: [
      'SELECT COUNT(CASE WHEN heartbeat_due >= ? THEN 1 END), COUNT(CASE WHEN heartbeat_due < ? THEN 1 END), COUNT(CASE WHEN heartbeat_period < 0 THEN 1 END), COUNT(CASE WHEN heartbeat_period = 0 THEN 1 END), COUNT(CASE WHEN sprung = 1 THEN 1 END), MIN(heartbeat_due) FROM sensor',
      [cutoff, cutoff],
    ],
  };
  const plans = {};
  for (const [name, [sql, parameters]] of Object.entries(queries)) {
    const [rows] = /** @type {any} */ (await db.query(`EXPLAIN ${sql}`, parameters));
    plans[name] = rows.map((row) => ({ table: row.table, type: row.type, key: row.key, rows: row.rows, extra: row.Extra }));
  }
  return plans;
}

export function readSideReport({ records, sensors, seedSeconds, fillSeconds, result, plans }) {
  const fmt = (value, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
  const kib = (bytes) => fmt(bytes / 1024, 0);
  const e = result.exported;
  return [
    `Read side: ${records} records of one user over ${sensors} sensors (seeded in ${fmt(seedSeconds)} s; the sensor table filled by the migration in ${fmt(fillSeconds, 1)} s)`,
    '',
    '| request | median ms | answer KiB |',
    '|---|---:|---:|',
    ...[...result.lists, ...result.pages].map(
      (t) => `| \`${t.path.replace(/changed_since=[^&]+/, 'changed_since=…')}\` | ${fmt(t.medianMs, 1)} | ${kib(t.bytes)} |`,
    ),
    '',
    `Full CSV export: ${e.lines - 1} rows, ${fmt(e.bytes / 1048576, 1)} MiB in ${fmt(e.seconds, 1)} s (${fmt(e.rowsPerSec)} rows/s);` +
      ` service resident memory ${fmt(e.rssBeforeMiB)} MiB before, peak ${fmt(e.peakRssMiB)} MiB during (VmHWM of the process ${fmt(e.hwmMiB)} MiB)`,
    '',
    'Plans (EXPLAIN):',
    '',
    '| query | table | access | index | rows | extra |',
    '|---|---|---|---|---:|---|',
    ...Object.entries(plans).flatMap(([name, rows]) =>
      rows.map((row) => `| ${name} | ${row.table} | ${row.type} | ${row.key ?? ''} | ${row.rows} | ${row.extra ?? ''} |`),
    ),
  ].join('\n');
}
