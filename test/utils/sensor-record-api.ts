import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import type { DataSource } from 'typeorm';

export const SENSOR_RECORD_URL = '/api-sensor/iot/sensor-record';
export const SENSOR_RECORD_BATCH_URL = '/api-sensor/iot/sensor-records';

export interface SubmitOptions {
  token?: string;
  contentType?: string | null;
  format?: string;
  accept?: string;
}

/** POSTs a report (an object is sent as JSON text, a string or bytes as they are) as a device would. */
export function submit(app: INestApplication, body: unknown, options: SubmitOptions = {}) {
  return post(app, SENSOR_RECORD_URL, body, options);
}

/** POSTs a batch of reports (a list is sent as JSON text, a string or bytes as they are) as a relay would. */
export function submitBatch(app: INestApplication, body: unknown, options: SubmitOptions = {}) {
  return post(app, SENSOR_RECORD_BATCH_URL, body, options);
}

function post(app: INestApplication, path: string, body: unknown, options: SubmitOptions) {
  let call = request(app.getHttpServer()).post(options.format ? `${path}?_format=${options.format}` : path);
  if (options.token) call = call.set('Authorization', `Bearer ${options.token}`);
  if (options.contentType !== null) call = call.set('Content-Type', options.contentType ?? 'application/hal+json');
  if (options.accept) call = call.set('Accept', options.accept);
  // superagent would serialise bytes sent as JSON into a JSON object of its own; they go as they are.
  if (Buffer.isBuffer(body)) call = call.serialize((bytes) => bytes as string);
  call = call.send(typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body));
  // superagent labels a text body as a form unless told otherwise; `null` means "send no Content-Type".
  return options.contentType === null ? call.unset('Content-Type') : call;
}

/** A `sensor_report` row read back with plain SQL, normalised across drivers (decimals as numbers, instants as ISO text). */
export type StoredRow = Record<string, unknown>;

const DECIMALS = ['field_battery_voltage', 'field_data', 'field_snr'];
const INSTANTS = ['created', 'changed', 'revision_timestamp', 'field_date'];
const FLAGS = ['status', 'promote', 'sticky', 'default_langcode', 'revision_translation_affected'];

export async function storedRows(dataSource: DataSource): Promise<StoredRow[]> {
  const runner = dataSource.createQueryRunner();
  try {
    const rows: StoredRow[] = await runner.query('SELECT * FROM sensor_report ORDER BY nid');
    return rows.map(normalise);
  } finally {
    await runner.release();
  }
}

export async function storedRow(dataSource: DataSource, nid: number): Promise<StoredRow | undefined> {
  return (await storedRows(dataSource)).find((row) => row.nid === nid);
}

function normalise(raw: StoredRow): StoredRow {
  const row: StoredRow = { ...raw };
  for (const column of ['nid', 'vid', 'uid', 'revision_uid']) row[column] = row[column] === null ? null : Number(row[column]);
  for (const column of DECIMALS) row[column] = row[column] === null ? null : Number(row[column]);
  for (const column of FLAGS) row[column] = Boolean(Number(row[column]));
  for (const column of INSTANTS) {
    const value = row[column];
    row[column] = (value instanceof Date ? value : new Date(`${String(value).replace(' ', 'T')}Z`)).toISOString();
  }
  return row;
}
