// @ts-check
// MariaDB housekeeping for the benchmark: make sure the server is up, recreate the bench database,
// and read back the rows one load run left (by dev_id prefix) for the accounting.
import { spawnSync } from 'node:child_process';
import mysql from 'mysql2/promise';

const connect = (url, database) =>
  mysql.createConnection({
    host: url.hostname,
    port: Number(url.port || 3306),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    database,
    timezone: 'Z',
    connectTimeout: 3000,
  });

/** Connects to the server (not a database); starts MariaDB when it does not answer (never stops it). */
export async function ensureServer(serverUrl, { timeoutMs = 30_000 } = {}) {
  const url = new URL(serverUrl);
  try {
    return await connect(url);
  } catch (error) {
    const first = /** @type {NodeJS.ErrnoException} */ (error);
    if (!['127.0.0.1', 'localhost'].includes(url.hostname)) throw first;
    process.stderr.write(`bench: MariaDB not answering (${first.code ?? first.message}); starting it\n`);
    spawnSync('start-stop-daemon', ['--start', '--oknodo', '--background', '--exec', '/usr/sbin/mariadbd'], { stdio: 'inherit' });
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      try {
        return await connect(url);
      } catch {
        // not yet
      }
    }
    throw new Error(`MariaDB at ${url.host} did not come up within ${timeoutMs} ms`);
  }
}

export async function recreateDatabase(admin, name) {
  if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`unsafe bench database name ${name}`);
  await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
  await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
}

export async function openDatabase(serverUrl, name) {
  return connect(new URL(serverUrl), name);
}

/** `field_sequence` of every row whose dev_id starts `<prefix>-` (the request serials that landed). */
export async function serialsStored(db, prefix, columns = { deviceId: 'field_sensor_id', serial: 'field_sequence' }) {
  const [rows] = await db.query(`SELECT \`${columns.serial}\` AS serial FROM sensor_report WHERE \`${columns.deviceId}\` LIKE ?`, [
    `${prefix}-%`,
  ]);
  return rows.map((row) => Number(row.serial));
}

export async function countRows(db, table = 'sensor_report') {
  const [rows] = await db.query(`SELECT COUNT(*) AS n FROM \`${table}\``);
  return Number(rows[0].n);
}

const COUNTERS = ['Questions', 'Com_select', 'Com_insert', 'Com_update', 'Com_begin', 'Com_commit', 'Com_rollback', 'Innodb_data_fsyncs'];

/** Server-wide statement counters (other clients of the server add noise; read as per-request rates). */
export async function statusCounters(db) {
  const [rows] = await db.query(`SHOW GLOBAL STATUS WHERE Variable_name IN (${COUNTERS.map(() => '?').join(', ')})`, COUNTERS);
  return Object.fromEntries(rows.map((row) => [row.Variable_name, Number(row.Value)]));
}

/** Counter increase between two readings, divided by `per` (e.g. requests answered). */
export function counterRates(before, after, per) {
  return Object.fromEntries(
    Object.keys(after).map((key) => [key, per > 0 ? Math.round(((after[key] - (before[key] ?? 0)) / per) * 100) / 100 : null]),
  );
}
