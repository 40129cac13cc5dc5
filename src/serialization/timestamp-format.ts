import { formatInTimeZone } from 'date-fns-tz';

/** PHP's `DateTime::RFC3339` pattern, sent as the `format` member of timestamp items. */
export const TIMESTAMP_FORMAT = 'Y-m-d\\TH:i:sP';

// `xxx` (not `XXX`) so that a zero offset reads `+00:00` as PHP writes it, never `Z`.
const RFC3339_PATTERN = "yyyy-MM-dd'T'HH:mm:ssxxx";

/**
 * `created`, `changed`, `revision_timestamp`: always UTC, as Drupal's timestamp normalizer writes them.
 * The ISO form already is UTC, so no time-zone machinery is needed (it cost 2 % of a submission's CPU);
 * cutting it after the seconds drops the milliseconds as the `ss` pattern does. Four-digit years only
 * (these instants are the time a record was stored).
 */
export function formatUtcTimestamp(instant: Date): string {
  return `${instant.toISOString().slice(0, 19)}+00:00`;
}

/** `field_date`: the device's time in the site time zone, with that zone's offset at the instant. */
export function formatSiteDate(instant: Date, timeZone: string): string {
  return formatInTimeZone(instant, timeZone, RFC3339_PATTERN);
}
