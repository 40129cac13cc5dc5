import { Transform } from 'class-transformer';
import { IsOptional, ValidateBy } from 'class-validator';
import { QueryInteger } from '../../common/query/query-rules.js';
import { QueryTime, queryTimeReason } from '../../common/query/query-time.js';
import type { SubmittedTime } from '../../sensor-record/values/device-time.js';
import { csvColumnsViolation, type RecordCsvColumn } from '../record-csv.js';

export const FEED_MAX_LIMIT = 10_000;
export const FEED_DEFAULT_LIMIT = 1_000;
export const NID_MAX = 2_147_483_647;

export const feedReasons = {
  datetime: queryTimeReason,
  needsChangedSince: 'This parameter needs changed_since.',
  csvOnly: 'This parameter is for _format=csv only.',
} as const;

/** `GET /api-sensor/sensor-records` (docs/interface.md#get-api-sensorsensor-records). */
export class FeedQueryDto {
  /** The point to read after: records changed at or after this instant (with changed_since_nid: after that record). */
  @QueryTime()
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
