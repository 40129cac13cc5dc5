import type { SensorAlertFacts } from '../alerts/sensor-alert-facts.js';
import { formatSiteDate, formatUtcTimestamp } from '../serialization/timestamp-format.js';
import { shortestDecimal } from '../sensor-record/values/decimal.js';
import type { SensorEntity } from './sensor.entity.js';
import { type SensorState, sensorState } from './sensor-state.js';

/** A sensor as the sensor routes answer it (docs/interface.md#a-sensor); member order is the CSV's column order. */
export interface SensorView {
  dev_id: string;
  state: SensorState;
  sprung: boolean;
  heartbeat_period: number;
  heartbeat_due: string | null;
  last_received: string;
  first_received: string;
  last_device_time: string;
  first_device_time: string;
  report_count: number;
  last_nid: number;
  last_event: string;
  last_status: string | null;
  last_battery_voltage: string | null;
  last_battery_time: string | null;
  last_counter: number | null;
  last_tilt_sensor: string | null;
  sprung_at: string | null;
  battery_low_below: string | null;
}

export const SENSOR_VIEW_MEMBERS: ReadonlyArray<keyof SensorView> = [
  'dev_id',
  'state',
  'sprung',
  'heartbeat_period',
  'heartbeat_due',
  'last_received',
  'first_received',
  'last_device_time',
  'first_device_time',
  'report_count',
  'last_nid',
  'last_event',
  'last_status',
  'last_battery_voltage',
  'last_battery_time',
  'last_counter',
  'last_tilt_sensor',
  'sprung_at',
  'battery_low_below',
];

/** Server instants in UTC as `created` is rendered, device times in the site's zone as `field_date` is. */
export function toSensorView(sensor: SensorEntity, facts: SensorAlertFacts, overdueCutoff: Date, siteTimezone: string): SensorView {
  return {
    dev_id: sensor.devId,
    state: sensorState(sensor, overdueCutoff),
    sprung: Boolean(sensor.sprung),
    heartbeat_period: sensor.heartbeatPeriod,
    heartbeat_due: sensor.heartbeatDue && formatUtcTimestamp(sensor.heartbeatDue),
    last_received: formatUtcTimestamp(sensor.lastReceived),
    first_received: formatUtcTimestamp(sensor.firstReceived),
    last_device_time: formatSiteDate(sensor.lastDeviceTime, siteTimezone),
    first_device_time: formatSiteDate(sensor.firstDeviceTime, siteTimezone),
    report_count: sensor.reportCount,
    last_nid: sensor.lastNid,
    last_event: sensor.lastEvent,
    last_status: sensor.lastStatus,
    last_battery_voltage: shortestDecimal(sensor.lastBatteryVoltage),
    last_battery_time: sensor.lastBatteryTime && formatSiteDate(sensor.lastBatteryTime, siteTimezone),
    last_counter: sensor.lastCounter,
    last_tilt_sensor: sensor.lastTiltSensor,
    sprung_at: facts.sprungAt && formatSiteDate(facts.sprungAt, siteTimezone),
    battery_low_below: shortestDecimal(facts.batteryLowBelow),
  };
}
