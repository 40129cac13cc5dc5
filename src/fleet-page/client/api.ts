import type { SensorState } from './format';
import type { Session } from './session';

/** A sensor as the sensor routes answer it (docs/interface.md#a-sensor): the members the page reads. */
export interface Sensor {
  dev_id: string;
  state: SensorState;
  sprung: boolean;
  heartbeat_period: number;
  heartbeat_due: string | null;
  last_received: string;
  last_device_time: string;
  report_count: number;
  last_event: string;
  last_status: string | null;
  last_battery_voltage: string | null;
  last_battery_time: string | null;
  /** Device time of the open sprung episode, from which the 24-hour clock runs. */
  sprung_at: string | null;
  /** The owner's battery_low alert threshold for this sensor, in volts. */
  battery_low_below: string | null;
}

/** A record as `GET /node/{nid}?_format=json` renders it: every field a list of items. */
export type RecordJson = Record<string, Array<{ value?: unknown }> | undefined>;

export const SENSORS_PATH = '/api-sensor/sensors';
export const RECORDS_PATH = '/api-sensor/sensor-records';
/** Sensors per request: the most the route gives at once. */
const SENSOR_PAGE = 10_000;
/** Records of a sensor read for its chart and table: the most the sensor route gives. */
export const SENSOR_RECORDS = 100;

/** The service said no, with its message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function json<T>(response: Response): Promise<T> {
  if (response.ok) return (await response.json()) as T;
  const body = (await response.json().catch(() => ({}))) as { message?: unknown };
  throw new ApiError(response.status, typeof body.message === 'string' ? body.message : `HTTP ${response.status}`);
}

/** Every sensor of the user, following the list's `next` links (taken as paths: the page's own origin). */
export async function allSensors(session: Session): Promise<Sensor[]> {
  const sensors: Sensor[] = [];
  let path: string | null = `${SENSORS_PATH}?limit=${SENSOR_PAGE}`;
  while (path !== null) {
    const page: { sensors: Sensor[]; next: string | null } = await json(await session.get(path));
    sensors.push(...page.sensors);
    path = page.next === null ? null : pathOf(page.next);
  }
  return sensors;
}

export async function oneSensor(session: Session, devId: string): Promise<{ sensor: Sensor; records: RecordJson[] }> {
  return json(await session.get(`${SENSORS_PATH}/${encodeURIComponent(devId)}?records=${SENSOR_RECORDS}`));
}

/** A CSV of an existing route, read with the token (a plain link could not send it). */
export async function csv(session: Session, path: string): Promise<Blob> {
  const response = await session.get(path, 'text/csv');
  if (!response.ok) await json(response);
  return response.blob();
}

function pathOf(url: string): string {
  const parsed = new URL(url, location.href);
  return `${parsed.pathname}${parsed.search}`;
}

/** The first item's value of a record's field, as text; null when the field is empty. */
export function field(record: RecordJson, name: string): string | null {
  const value = record[name]?.[0]?.value;
  return value === undefined || value === null ? null : String(value);
}
