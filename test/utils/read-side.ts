import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { asText } from './raw-response.js';
import { submit } from './sensor-record-api.js';

export const SENSORS_URL = '/api-sensor/sensors';
export const FEED_URL = '/api-sensor/sensor-records';

export interface Report {
  dev_id?: string;
  /** metadata.time as sent. */
  time?: string;
  event?: string;
  status?: string;
  timeout?: number;
  voltage?: number | string;
  network?: string;
  rssi?: number;
  snr?: number | string;
  /** field_data: a bait station's level. */
  data?: number | string;
}

/** A submission body with the given readings (the list of one item, Drupal's own shape; docs/interface.md). */
export function reportBody(report: Report = {}): Record<string, unknown> {
  const fields: Record<string, unknown> = {
    type: [{ target_id: 'sensor_report' }],
    field_event: [{ value: report.event ?? 'Heartbeat' }],
  };
  if (report.status !== undefined) fields.field_status = [{ value: report.status }];
  if (report.timeout !== undefined) fields.field_timeout = [{ value: report.timeout }];
  if (report.voltage !== undefined) fields.field_battery_voltage = [{ value: report.voltage }];
  if (report.network !== undefined) fields.field_network = [{ value: report.network }];
  if (report.data !== undefined) fields.field_data = [{ value: report.data }];
  const metadata: Record<string, unknown> = { time: report.time ?? '2026-01-01T00:00:00Z' };
  if (report.rssi !== undefined || report.snr !== undefined) metadata.gateways = [{ rssi: report.rssi, snr: report.snr }];
  return { dev_id: report.dev_id ?? 'trap-1', metadata, payload_fields: fields };
}

/** Submits a report; resolves with its nid (fails the test unless it answers 201). */
export async function report(app: INestApplication, token: string, readings: Report = {}): Promise<number> {
  const response = await submit(app, reportBody(readings), { token, format: 'json' }).expect(201);
  return (response.body as { nid: [{ value: number }] }).nid[0].value;
}

/** A GET with a bearer token, the body kept as the exact text sent. */
export function read(app: INestApplication, path: string, token?: string, accept?: string) {
  let call = request(app.getHttpServer()).get(path);
  if (token !== undefined) call = call.set('Authorization', `Bearer ${token}`);
  if (accept !== undefined) call = call.set('Accept', accept);
  return asText(call);
}

/** The path and query of an absolute `next` URL, to follow it on the test application. */
export function pathOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}
