import { normalizeJson } from '../serialization/json-normalizer.js';
import type { NormalizedItem } from '../serialization/normalized-value.js';
import type { SensorRecordModel } from '../serialization/sensor-record.model.js';

/** The CSV columns of a record: every field of its json rendering, in that order (docs/interface.md#csv). */
export const RECORD_CSV_COLUMNS = [
  'nid',
  'uuid',
  'vid',
  'langcode',
  'type',
  'revision_timestamp',
  'revision_uid',
  'revision_log',
  'status',
  'uid',
  'title',
  'created',
  'changed',
  'promote',
  'sticky',
  'default_langcode',
  'revision_translation_affected',
  'path',
  'field_battery_voltage',
  'field_counter',
  'field_data',
  'field_date',
  'field_event',
  'field_gateway',
  'field_location',
  'field_network',
  'field_rssi',
  'field_sensor_id',
  'field_sequence',
  'field_snr',
  'field_status',
  'field_tilt_sensor',
  'field_timeout',
] as const;

export type RecordCsvColumn = (typeof RECORD_CSV_COLUMNS)[number];

/** What is wrong with a `columns=` list, or undefined when each name is a column, once. */
export function csvColumnsViolation(names: unknown): string | undefined {
  if (!Array.isArray(names) || names.every((name) => name === '')) return 'Name at least one field.';
  const known = new Set<string>(RECORD_CSV_COLUMNS);
  const unknown = names.filter((name) => !known.has(name));
  if (unknown.length > 0) return `Unknown field name(s): ${someOf(unknown)}. The fields: ${RECORD_CSV_COLUMNS.join(', ')}.`;
  const twice = names.find((name, index) => names.indexOf(name) !== index);
  if (twice !== undefined) return `${twice} is named more than once.`;
  return undefined;
}

const DECIMALS = new Set(['field_battery_voltage', 'field_data', 'field_snr']);

/**
 * One CSV line of a record: each field's value as its json rendering has it (`value`; `target_id` of
 * a reference; `alias` of the path), empty when the field is. Decimals go as numbers, so that a
 * negative one is not taken for a formula.
 */
export function recordCsvRow(record: SensorRecordModel, siteTimezone: string): Record<string, unknown> {
  const fields = normalizeJson(record, siteTimezone);
  const row: Record<string, unknown> = {};
  for (const column of RECORD_CSV_COLUMNS) {
    const value = mainValue(fields[column]?.[0]);
    row[column] = DECIMALS.has(column) && typeof value === 'string' ? Number(value) : value;
  }
  return row;
}

function mainValue(item: NormalizedItem | undefined): unknown {
  if (!item) return null;
  for (const member of ['value', 'target_id', 'alias']) if (member in item) return item[member];
  return null;
}

// An answer names enough of what was wrong to find it, not the whole of a long query back.
const NAMES_SHOWN = 5;
const NAME_SHOWN_LENGTH = 40;

function someOf(names: string[]): string {
  const shown = names
    .slice(0, NAMES_SHOWN)
    .map((name) => (name.length > NAME_SHOWN_LENGTH ? `${name.slice(0, NAME_SHOWN_LENGTH)}…` : name));
  return names.length > NAMES_SHOWN ? `${shown.join(', ')} and ${names.length - NAMES_SHOWN} more` : shown.join(', ');
}
