import { Transform } from 'class-transformer';
import { IsOptional, ValidateBy } from 'class-validator';
import { QueryInteger } from '../../common/query/query-rules.js';
import { DEVICE_TIME_MAX_LENGTH, SubmittedTime } from '../../sensor-record/values/device-time.js';
import { csvColumnsViolation, type RecordCsvColumn } from '../record-csv.js';

export const FEED_MAX_LIMIT = 10_000;
export const FEED_DEFAULT_LIMIT = 1_000;
export const NID_MAX = 2_147_483_647;

export const feedReasons = {
  datetime: 'This value is not a valid datetime.',
  needsChangedSince: 'This parameter needs changed_since.',
  csvOnly: 'This parameter is for _format=csv only.',
} as const;

/**
 * An offset's `+` sent unencoded in a query string arrives as a space (`…T04:35:00 00:00`): read
 * back as the `+` it was, since a space cannot stand before an offset otherwise.
 */
function readQueryTime({ value }: { value: unknown }): unknown {
  return typeof value === 'string' ? new SubmittedTime(value.replace(/ (\d{2}(?::?\d{2})?)$/, '+$1')) : value;
}

function isQueryTime(value: unknown): boolean {
  return value instanceof SubmittedTime && value.text.length <= DEVICE_TIME_MAX_LENGTH && value.parsed !== null;
}

/** `GET /api-sensor/sensor-records` (docs/interface.md#get-api-sensorsensor-records). */
export class FeedQueryDto {
  /** The point to read after: records changed at or after this instant (with changed_since_nid: after that record). */
  @IsOptional()
  @Transform(readQueryTime)
  @ValidateBy({ name: 'isQueryTime', validator: { validate: isQueryTime } }, { message: feedReasons.datetime })
  changed_since?: SubmittedTime;

  @QueryInteger(0, NID_MAX)
  @ValidateBy(
    { name: 'needsChangedSince', validator: { validate: (_value, args) => (args?.object as FeedQueryDto).changed_since !== undefined } },
    { message: feedReasons.needsChangedSince },
  )
  changed_since_nid?: number;

  /** Records per page; in CSV, without it, every record up to the settled horizon. */
  @QueryInteger(1, FEED_MAX_LIMIT)
  limit?: number;

  /** The CSV's columns, comma-separated field names in the order wanted; every field without it. */
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.split(',') : value))
  @ValidateBy({
    name: 'csvColumns',
    validator: {
      validate: (value) => csvColumnsViolation(value) === undefined,
      defaultMessage: (args) => csvColumnsViolation(args?.value) ?? '',
    },
  })
  columns?: RecordCsvColumn[];
}
