import { randomUUID } from 'node:crypto';
import { wholeSeconds } from '../common/time/whole-seconds.js';
import { SENSOR_REPORT_BUNDLE } from '../serialization/sensor-record.model.js';
import type { CreateSensorRecordDto } from './dto/create-sensor-record.dto.js';
import { DEFAULT_HEARTBEAT_TIMEOUT } from './dto/payload-fields.dto.js';
import type { SensorRecordEntity } from './sensor-record.entity.js';
import { resolveDeviceTime } from './values/device-time.js';

const TITLE_LABEL = 'Sensor report';

export interface NewRowContext {
  uid: number;
  /** The creation instant; Drupal timestamps have whole seconds. */
  now: Date;
  siteTimezone: string;
  requestBody: string;
  /** Set when the record comes from a network-server uplink rather than a direct submission. */
  uplink?: UplinkOrigin;
}

/** Where a record made from a network-server uplink came from. */
export interface UplinkOrigin {
  /** Names the uplink; unique among records, so a repeated delivery stores nothing twice. */
  key: string;
  integrationId: number;
}

/** The row a validated submission is stored as (without `nid`/`vid`, which the database assigns). */
export type NewSensorRecordRow = Omit<SensorRecordEntity, 'nid' | 'vid'>;

/** The columns every new record has the same value in: Drupal's node flags of a published report. */
export const SAME_IN_EVERY_RECORD = {
  type: SENSOR_REPORT_BUNDLE,
  langcode: 'en',
  status: true,
  promote: false,
  sticky: false,
  defaultLangcode: true,
  revisionTranslationAffected: true,
  revisionLog: null,
} as const satisfies Partial<NewSensorRecordRow>;

/**
 * The columns every new record gives the value of another of its columns: its revision's author is its
 * author, and it was last changed, in its only revision, when it was created. The INSERT stores the
 * other column's value in them (sensor-record-insert.ts), whatever the row says.
 */
export const COPIED_IN_EVERY_RECORD = {
  revisionUid: 'uid',
  changed: 'created',
  revisionTimestamp: 'created',
} as const satisfies Partial<Record<keyof NewSensorRecordRow, keyof NewSensorRecordRow>>;

export function newSensorRecordRow(submission: CreateSensorRecordDto, context: NewRowContext): NewSensorRecordRow {
  const { metadata, payload_fields: fields } = submission;
  const deviceTime = metadata.time.parsed;
  // Validation has already refused every time that does not read.
  if (!deviceTime) throw new Error(`Unreadable device time ${metadata.time.text}`);
  const gateway = metadata.gateways?.[0];
  const created = wholeSeconds(context.now);
  return {
    uuid: randomUUID(),
    // Member by member: spread into the literal, they cost about 80 µs a row (V8 builds such an object
    // slowly), more than the rest of the row (docs/benchmark.md#where-the-time-goes).
    type: SAME_IN_EVERY_RECORD.type,
    langcode: SAME_IN_EVERY_RECORD.langcode,
    status: SAME_IN_EVERY_RECORD.status,
    promote: SAME_IN_EVERY_RECORD.promote,
    sticky: SAME_IN_EVERY_RECORD.sticky,
    defaultLangcode: SAME_IN_EVERY_RECORD.defaultLangcode,
    revisionTranslationAffected: SAME_IN_EVERY_RECORD.revisionTranslationAffected,
    revisionLog: SAME_IN_EVERY_RECORD.revisionLog,
    uid: context.uid,
    revisionUid: context.uid,
    title: `${TITLE_LABEL}: ${submission.dev_id} (${metadata.time.text})`,
    created,
    changed: created,
    revisionTimestamp: created,
    fieldBatteryVoltage: fields.field_battery_voltage ?? null,
    fieldCounter: fields.field_counter ?? null,
    fieldData: fields.field_data ?? null,
    fieldDate: resolveDeviceTime(deviceTime, context.siteTimezone),
    fieldEvent: fields.field_event,
    fieldGateway: fields.field_gateway ?? null,
    fieldNetwork: fields.field_network ?? null,
    fieldRssi: gateway?.rssi ?? gateway?.field_rssi ?? null,
    devId: submission.dev_id,
    fieldSequence: fields.field_sequence ?? null,
    fieldSnr: gateway?.snr ?? gateway?.field_snr ?? null,
    fieldStatus: fields.field_status ?? null,
    fieldTiltSensor: fields.field_tilt_sensor ?? null,
    fieldTimeout: fields.field_timeout ?? DEFAULT_HEARTBEAT_TIMEOUT,
    requestBody: context.requestBody,
    uplinkKey: context.uplink?.key ?? null,
    integrationId: context.uplink?.integrationId ?? null,
  };
}
