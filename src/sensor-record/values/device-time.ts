import { formatInTimeZone } from 'date-fns-tz';

/** A device's `metadata.time`, read but not yet placed on the time line. */
export interface DeviceTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** Minutes east of UTC, or null when the device sent a local time without an offset. */
  offsetMinutes: number | null;
}

/**
 * `metadata.time` as validation leaves it: the text exactly as submitted (the title quotes it) and
 * what it reads as, so that nothing after validation reads it again. `parsed` is null for a text that
 * names no time, which validation then refuses.
 */
export class SubmittedTime {
  readonly parsed: DeviceTime | null;

  constructor(readonly text: string) {
    this.parsed = parseDeviceTime(text);
  }
}

export const DEVICE_TIME_MAX_LENGTH = 64;
const ISO_8601 = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)?$/;
const HOUR_MS = 3_600_000;

/**
 * Reads `YYYY-MM-DD(T| )HH:MM[:SS[.fraction]][Z|z|±HH:MM|±HHMM|±HH]`; the fraction is cut off.
 * Null for anything else, including dates and times that do not exist (`2021-02-30`, `24:61`).
 */
export function parseDeviceTime(text: string): DeviceTime | null {
  const match = ISO_8601.exec(text);
  if (!match) return null;
  const [, year, month, day, hour, minute, second = '0', zulu, sign, offsetHours, offsetMinutes = '00'] = match;
  const time: DeviceTime = {
    year: Number(year),
    month: Number(month),
    day: Number(day),
    hour: Number(hour),
    minute: Number(minute),
    second: Number(second),
    offsetMinutes: zulu ? 0 : sign === undefined ? null : (sign === '-' ? -1 : 1) * (Number(offsetHours) * 60 + Number(offsetMinutes)),
  };
  // Years are bounded so that every accepted time, in any zone, fits a MySQL DATETIME.
  if (time.year < 1900 || time.year > 9998 || time.month < 1 || time.month > 12) return null;
  if (time.day < 1 || time.day > daysInMonth(time.year, time.month)) return null;
  if (time.hour > 23 || time.minute > 59 || time.second > 59) return null;
  if (sign !== undefined && (Number(offsetHours) > 23 || Number(offsetMinutes) > 59)) return null;
  return time;
}

/**
 * The instant a device time names. Without an offset it is a wall-clock time in `timeZone`: one
 * skipped by a daylight-saving change moves forward by the gap, one that occurs twice takes the
 * earlier instant. (date-fns-tz's `fromZonedTime` does the opposite in both cases, and its
 * `getTimezoneOffset` reads the date as a wall-clock time, so the offsets come from its formatter.)
 */
export function resolveDeviceTime(time: DeviceTime, timeZone: string): Date {
  const wallClock = Date.UTC(time.year, time.month - 1, time.day, time.hour, time.minute, time.second);
  if (time.offsetMinutes !== null) return new Date(wallClock - time.offsetMinutes * 60_000);
  const offsetAt = (instant: number) => offsetMs(formatInTimeZone(new Date(instant), timeZone, 'xxx'));
  const offsetBefore = offsetAt(wallClock - 24 * HOUR_MS);
  const offsetAfter = offsetAt(wallClock + 24 * HOUR_MS);
  const instants = [offsetBefore, offsetAfter]
    .map((offset) => wallClock - offset)
    .filter((instant) => offsetAt(instant) === wallClock - instant);
  if (instants.length > 0) return new Date(Math.min(...instants));
  // In the gap: read with the offset in force before the change, which lands after it by the gap.
  return new Date(wallClock - offsetBefore);
}

/** `+13:00` → milliseconds east of UTC. */
function offsetMs(offset: string): number {
  const minutes = Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6));
  return (offset.startsWith('-') ? -1 : 1) * minutes * 60_000;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}
