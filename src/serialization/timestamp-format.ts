import { formatInTimeZone } from 'date-fns-tz';

/** PHP's `DateTime::RFC3339` pattern, sent as the `format` member of timestamp items. */
export const TIMESTAMP_FORMAT = 'Y-m-d\\TH:i:sP';

// `xxx` (not `XXX`) so that a zero offset reads `+00:00` as PHP writes it, never `Z`.
const RFC3339_PATTERN = "yyyy-MM-dd'T'HH:mm:ssxxx";

/**
 * `created`, `changed`, `revision_timestamp`: always UTC, as Drupal's timestamp normalizer writes them.
 * The ISO form already is UTC, so no time-zone machinery is needed (its cost:
 * docs/benchmark.md#choices-made-by-measurement); cutting it after the seconds drops the milliseconds
 * as the `ss` pattern does. Four-digit years only (these instants are the time a record was stored).
 */
export function formatUtcTimestamp(instant: Date): string {
  return `${instant.toISOString().slice(0, 19)}+00:00`;
}

const wallClocks = new Map<string, Intl.DateTimeFormat>();

/**
 * `field_date`: the device's time in the site time zone, with that zone's offset at the instant.
 * The wall-clock time comes from one cached Intl formatter per zone (date-fns-tz took most of the
 * time of a 10,000-sensor list: docs/benchmark.md#choices-made-by-measurement); an offset that is not
 * whole minutes (local mean time before a zone's standard time) is left to date-fns-tz, so that the
 * text is always the one it writes.
 */
export function formatSiteDate(instant: Date, timeZone: string): string {
  const wholeSeconds = Math.floor(instant.getTime() / 1000) * 1000;
  const parts: Record<string, number> = {};
  for (const part of wallClock(timeZone).formatToParts(instant)) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  const { year = NaN, month = NaN, day = NaN, hour = NaN, minute = NaN, second = NaN } = parts;
  const offsetMs = Date.UTC(year, month - 1, day, hour, minute, second) - wholeSeconds;
  if (!(year >= 1000 && year <= 9999) || !Number.isInteger(offsetMs / 60_000)) return formatInTimeZone(instant, timeZone, RFC3339_PATTERN);
  const offsetMinutes = Math.abs(offsetMs / 60_000);
  const sign = offsetMs < 0 ? '-' : '+';
  return `${year}-${pad(month)}-${pad(day)}T${pad(hour)}:${pad(minute)}:${pad(second)}${sign}${pad(Math.floor(offsetMinutes / 60))}:${pad(offsetMinutes % 60)}`;
}

function wallClock(timeZone: string): Intl.DateTimeFormat {
  let formatter = wallClocks.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    wallClocks.set(timeZone, formatter);
  }
  return formatter;
}

function pad(value: number): string {
  return String(value).padStart(2, '0');
}
