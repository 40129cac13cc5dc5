/**
 * What the page writes for a sensor's values: words for states, how long ago, the 24-hour clock of a
 * sprung trap, a low battery. Plain functions of their inputs and the time, so that they are tested
 * without a browser (format.spec.ts).
 */
import { MONTH_NAMES } from '../../common/time/month-names';

export type SensorState = 'ok' | 'overdue' | 'no_heartbeat' | 'expired';

export const STATES: readonly SensorState[] = ['ok', 'overdue', 'no_heartbeat', 'expired'];

/** The state as a word: the colour only repeats it. */
export const STATE_WORDS: Record<SensorState, string> = {
  ok: 'OK',
  overdue: 'Overdue',
  no_heartbeat: 'No heartbeat',
  expired: 'Expired',
};

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** "just now", "12 min ago", "3 h 5 min ago", "4 days ago". */
export function timeAgo(then: number, now: number): string {
  const elapsed = Math.max(0, now - then);
  if (elapsed < MINUTE) return 'just now';
  return `${duration(elapsed)} ago`;
}

/** A span rounded down to what matters at that size: "40 s", "12 min", "3 h 5 min", "4 days". */
export function duration(milliseconds: number): string {
  if (milliseconds < MINUTE) return `${Math.floor(milliseconds / 1000)} s`;
  const minutes = Math.floor(milliseconds / MINUTE);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(milliseconds / HOUR);
  if (hours < 48) {
    const rest = minutes - hours * 60;
    return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
  }
  return `${Math.floor(milliseconds / DAY)} days`;
}

/**
 * A sprung trap must be checked within 24 hours (Animal Welfare Act 1999): the clock runs from the
 * moment it was sprung. `due` until 12 h, `soon` (amber) after 12 h, `urgent` (red) after 20 h,
 * `passed` after 24 h, the hours the reminder, the escalation and the deadline of the alerts.
 */
type SprungLevel = 'due' | 'soon' | 'urgent' | 'passed';

const SPRUNG_DEADLINE_MS = 24 * HOUR;
const SOON_AFTER_MS = 12 * HOUR;
const URGENT_AFTER_MS = 20 * HOUR;

export interface SprungClock {
  level: SprungLevel;
  /** "Sprung 13 h 5 min ago". */
  since: string;
  /** "10 h 55 min left" or "deadline passed". */
  left: string;
}

export function sprungClock(sprungAt: number, now: number): SprungClock {
  const elapsed = Math.max(0, now - sprungAt);
  const level: SprungLevel =
    elapsed >= SPRUNG_DEADLINE_MS ? 'passed' : elapsed >= URGENT_AFTER_MS ? 'urgent' : elapsed >= SOON_AFTER_MS ? 'soon' : 'due';
  const remaining = SPRUNG_DEADLINE_MS - elapsed;
  return {
    level,
    since: `Sprung ${timeAgo(sprungAt, now)}`,
    left: level === 'passed' ? 'deadline passed' : `${remaining < MINUTE ? 'under a minute' : duration(remaining)} left`,
  };
}

/** Below this a battery is marked low when no alert names a threshold of its own. */
const DEFAULT_LOW_BATTERY_VOLTS = 3.3;

/** Whether a voltage (a decimal string, as the API gives it) is under the threshold; false when unknown. */
export function isLowBattery(voltage: string | null | undefined, thresholdVolts = DEFAULT_LOW_BATTERY_VOLTS): boolean {
  if (voltage === null || voltage === undefined || voltage === '') return false;
  const volts = Number(voltage);
  return Number.isFinite(volts) && volts < thresholdVolts;
}

/** "3.61 V"; an unknown voltage is "unknown". */
export function volts(voltage: string | null | undefined): string {
  return voltage === null || voltage === undefined || voltage === '' ? 'unknown' : `${voltage} V`;
}

/**
 * Day, month and 24-hour time in the site's time zone, "12 Mar 14:02", with the year when it is not
 * the site's current year ("12 Mar 2025 14:02"): a record from another year must not read as this year's.
 */
export function siteTimeFormatter(timeZone: string, now: () => number = Date.now): (instant: number) => string {
  const format = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  const parts = (instant: number) => {
    const found = format.formatToParts(instant);
    return (type: Intl.DateTimeFormatPartTypes) => found.find((part) => part.type === type)?.value ?? '';
  };
  return (instant) => {
    const part = parts(instant);
    const year = part('year') === parts(now())('year') ? '' : ` ${part('year')}`;
    return `${Number(part('day'))} ${MONTH_NAMES[Number(part('month')) - 1]}${year} ${part('hour')}:${part('minute')}`;
  };
}

/** The zone's short name at an instant ("NZDT"), to say which clock the times are on. */
export function zoneName(timeZone: string, instant: number): string {
  const part = new Intl.DateTimeFormat('en-NZ', { timeZone, timeZoneName: 'short' })
    .formatToParts(instant)
    .find((candidate) => candidate.type === 'timeZoneName');
  return part?.value ?? timeZone;
}
