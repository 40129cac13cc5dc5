import { SENSOR_REPORT_BUNDLE, type SensorRecordModel, type UserReference } from './sensor-record.model.js';
import type { NormalizedItem, NormalizedRecord } from './normalized-value.js';
import { formatSiteDate, formatUtcTimestamp, TIMESTAMP_FORMAT } from './timestamp-format.js';

/** The record as Drupal's json format shows a node: every field, in the order docs/interface.md#json lists, as a list of items. */
export function normalizeJson(record: SensorRecordModel, siteTimezone: string): NormalizedRecord {
  const fields = record.fields;
  return {
    nid: [{ value: record.nid }],
    uuid: [{ value: record.uuid }],
    vid: [{ value: record.vid }],
    langcode: [{ value: record.langcode }],
    type: [{ target_id: SENSOR_REPORT_BUNDLE, target_type: 'node_type', target_uuid: record.bundleUuid }],
    revision_timestamp: [timestamp(record.revisionTimestamp)],
    revision_uid: [userReference(record.revisionUser)],
    revision_log: optional(record.revisionLog),
    status: [{ value: record.status }],
    uid: [userReference(record.owner)],
    title: [{ value: record.title }],
    created: [timestamp(record.created)],
    changed: [timestamp(record.changed)],
    promote: [{ value: record.promote }],
    sticky: [{ value: record.sticky }],
    default_langcode: [{ value: record.defaultLangcode }],
    revision_translation_affected: [{ value: record.revisionTranslationAffected }],
    path: [{ alias: record.path.alias, pid: record.path.pid, langcode: record.path.langcode }],
    field_battery_voltage: optional(fields.batteryVoltage),
    field_counter: optional(fields.counter),
    field_data: optional(fields.data),
    field_date: [{ value: formatSiteDate(fields.date, siteTimezone) }],
    field_event: [{ value: fields.event }],
    field_gateway: optional(fields.gateway),
    field_location: [],
    field_network: optional(fields.network),
    field_rssi: optional(fields.rssi),
    field_sensor_id: [{ value: fields.devId }],
    field_sequence: optional(fields.sequence),
    field_snr: optional(fields.snr),
    field_status: optional(fields.status),
    field_tilt_sensor: optional(fields.tiltSensor),
    field_timeout: [{ value: fields.timeout }],
  };
}

function timestamp(instant: Date): NormalizedItem {
  return { value: formatUtcTimestamp(instant), format: TIMESTAMP_FORMAT };
}

function userReference(user: UserReference): NormalizedItem {
  return { target_id: user.uid, target_type: 'user', target_uuid: user.uuid, url: `/user/${user.uid}` };
}

// Drupal counts an empty string as no value, like null.
function optional(value: string | number | null): NormalizedItem[] {
  return value === null || value === '' ? [] : [{ value }];
}
