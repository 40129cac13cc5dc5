// @ts-check
// The floor: the least a server on this stack must do per submission, as the denominator of the
// benchmark. Plain node:http + mysql2, no framework: RS256 bearer verification (jose, same key and
// claim checks as the service), JSON parse, one autocommitted INSERT of the same columns into the
// same `sensor_report` table, a small JSON 201. Run by bench/run.js; can run alone:
//
//   FLOOR_PORT=3901 DATABASE_URL=mysql://root@127.0.0.1:3306/sensor_records_bench \
//   OAUTH_PUBLIC_KEY=/path/public.pem FLOOR_ISSUER=http://localhost:3900 node bench/floor-server.js
//
// The INSERT's column list is read from the table at start-up (the service's migration owns the
// schema): every column is filled from the mapping below; an unmapped NOT NULL column without a
// default stops the floor with a message, so a schema change cannot silently make it cheaper.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { importSPKI, jwtVerify } from 'jose';
import mysql from 'mysql2/promise';
import { extractReport, timeParser } from './floor-report.js';

const env = process.env;
const port = Number(env.FLOOR_PORT ?? 3901);
const databaseUrl = env.DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/sensor_records_bench';
const issuer = env.FLOOR_ISSUER ?? 'http://localhost:3900';
const audience = env.FLOOR_CLIENT_ID || undefined;
const poolSize = Number(env.FLOOR_POOL_SIZE ?? 10);
const table = env.FLOOR_TABLE ?? 'sensor_report';
const siteTimezone = env.SITE_TIMEZONE ?? 'Pacific/Auckland';
const MAX_BODY = 64 * 1024;
const FORBIDDEN = JSON.stringify({ message: 'You are not authorized to create this node entity of bundle sensor_report.' });

const pem = (value) => (value.includes('-----BEGIN') ? value : readFileSync(value, 'utf8'));
if (!env.OAUTH_PUBLIC_KEY) {
  process.stderr.write('floor: OAUTH_PUBLIC_KEY (PEM or path) is required\n');
  process.exit(1);
}
const publicKey = await importSPKI(pem(env.OAUTH_PUBLIC_KEY), 'RS256');
const verifyOptions = {
  algorithms: ['RS256'],
  issuer,
  audience,
  clockTolerance: 1,
  requiredClaims: ['iss', 'aud', 'sub', 'jti', 'iat', 'nbf', 'exp', 'scope'],
};

const url = new URL(databaseUrl);
const pool = mysql.createPool({
  host: url.hostname,
  port: Number(url.port || 3306),
  user: decodeURIComponent(url.username),
  password: decodeURIComponent(url.password),
  database: url.pathname.slice(1),
  connectionLimit: poolSize,
  timezone: 'Z',
  charset: 'utf8mb4_unicode_ci',
  enableKeepAlive: true,
});

const parseTime = timeParser(siteTimezone);

// Once per subject, then kept: the floor does not re-check users (the service may, briefly cached).
const users = new Map();
async function userFor(uid) {
  let user = users.get(uid);
  if (!user) {
    const [rows] = await pool.query('SELECT uuid FROM users WHERE uid = ?', [uid]).catch(() => [[]]);
    user = { uid, uuid: rows[0]?.uuid ?? randomUUID() };
    users.set(uid, user);
  }
  return user;
}

/**
 * Column name -> value for the columns of the service's `sensor_report` table (its migration). `vid`
 * is left out on purpose: the service sets it to `nid` with a second statement, the floor does one
 * INSERT (the column is nullable).
 */
const producers = {
  uuid: (c) => c.uuid,
  type: () => 'sensor_report',
  langcode: () => 'en',
  status: () => 1,
  promote: () => 0,
  sticky: () => 0,
  default_langcode: () => 1,
  revision_translation_affected: () => 1,
  revision_log: () => null,
  uid: (c) => c.user.uid,
  revision_uid: (c) => c.user.uid,
  created: (c) => c.now,
  changed: (c) => c.now,
  revision_timestamp: (c) => c.now,
  request_body: (c) => c.raw,
};
for (const name of [
  'title',
  'field_sensor_id',
  'field_date',
  'field_event',
  'field_status',
  'field_network',
  'field_gateway',
  'field_sequence',
  'field_counter',
  'field_battery_voltage',
  'field_tilt_sensor',
  'field_timeout',
  'field_data',
  'field_rssi',
  'field_snr',
]) {
  producers[name] = (c) => c.report[name];
}
for (const [name, value] of Object.entries(JSON.parse(env.FLOOR_EXTRA_COLUMNS ?? '{}'))) producers[name] = () => value;

async function insertStatement() {
  const [rows] = await pool.query(
    `SELECT column_name AS name, is_nullable AS nullable, column_default AS def, extra
       FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = ? ORDER BY ordinal_position`,
    [table],
  );
  const columns = /** @type {Array<{ name: string; nullable: string; def: unknown; extra: string }>} */ (rows);
  if (columns.length === 0) throw new Error(`table ${table} does not exist in ${url.pathname.slice(1)}`);
  const filled = [];
  const missing = [];
  for (const { name, nullable, def, extra } of columns) {
    if (/auto_increment/i.test(extra)) continue;
    if (producers[name]) filled.push(name);
    else if (nullable !== 'YES' && def === null) missing.push(name);
  }
  if (missing.length > 0) throw new Error(`no value for NOT NULL column(s) ${missing.join(', ')} of ${table}`);
  const fill = filled.map((name) => producers[name]);
  const sql = `INSERT INTO \`${table}\` (${filled.map((n) => `\`${n}\``).join(', ')}) VALUES (${filled.map(() => '?').join(', ')})`;
  return { sql, columns: filled, values: (c) => fill.map((produce) => produce(c) ?? null) };
}

const insert = await insertStatement();

function send(res, status, body, headers = {}) {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        reject(Object.assign(new Error('too large'), { status: 413 }));
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

async function authenticate(header) {
  const token = /^bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1];
  if (token === undefined) return null;
  try {
    const { payload } = await jwtVerify(token, publicKey, verifyOptions);
    const uid = Number(payload.sub);
    if (!Number.isInteger(uid)) return null;
    return { user: await userFor(uid), clientId: Array.isArray(payload.aud) ? payload.aud[0] : payload.aud };
  } catch {
    return null;
  }
}

async function createRecord(req, res) {
  const bodyPromise = readBody(req);
  bodyPromise.catch(() => {});
  const caller = await authenticate(req.headers.authorization);
  if (!caller) return send(res, 403, FORBIDDEN);
  const type = req.headers['content-type'];
  if (!type || !/^application\/(hal\+)?json\s*(;|$)/i.test(type)) {
    return send(res, 415, JSON.stringify({ message: `No route found that matches "Content-Type: ${type ?? ''}"` }));
  }
  let raw;
  try {
    raw = await bodyPromise;
  } catch (error) {
    return send(res, /** @type {{ status?: number }} */ (error).status ?? 400, JSON.stringify({ message: 'Request body too large.' }));
  }
  let parsed;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return send(res, 422, JSON.stringify({ message: 'Syntax error' }));
  }
  const report = extractReport(parsed, parseTime);
  if (typeof report === 'string') {
    return send(res, 406, JSON.stringify({ message: `Unprocessable Entity: validation failed.\n${report}\n` }));
  }
  const uuid = randomUUID();
  try {
    /** @type {[import('mysql2').ResultSetHeader, unknown]} */
    const [result] = await pool.execute(insert.sql, insert.values({ report, uuid, now: new Date(), raw, ...caller }));
    send(res, 201, JSON.stringify({ nid: result.insertId, uuid }), { Location: `${issuer}/node/${result.insertId}` });
  } catch (error) {
    process.stderr.write(`floor: insert failed: ${/** @type {Error} */ (error).message}\n`);
    send(res, 503, JSON.stringify({ message: 'Database unavailable.' }), { 'Retry-After': '5' });
  }
}

const server = http.createServer((req, res) => {
  const path = (req.url ?? '').split('?', 1)[0];
  if (req.method === 'POST' && path === '/api-sensor/iot/sensor-record') {
    createRecord(req, res).catch((error) => {
      process.stderr.write(`floor: ${error.stack}\n`);
      if (!res.headersSent) send(res, 500, JSON.stringify({ message: 'Internal error.' }));
    });
  } else if (req.method === 'GET' && path === '/health') {
    send(res, 200, '{"status":"ok"}');
  } else {
    req.resume();
    send(res, 404, JSON.stringify({ message: `No route found for "${req.method} ${path}"` }));
  }
});

const shutdown = () => {
  server.close();
  pool.end().finally(() => process.exit(0));
  setTimeout(() => process.exit(0), 2000).unref();
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);

server.listen(port, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ listening: port, columns: insert.columns })}\n`);
});
