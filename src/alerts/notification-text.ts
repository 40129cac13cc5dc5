import { MONTH_NAMES } from '../common/time/month-names.js';
import { type NotificationEvent, SPRUNG_DEADLINE_SECONDS } from './alert-events.js';

export interface TextFacts {
  devId: string;
  /** When it happened: the record's device time, or the clock's. */
  at: Date;
  siteTimezone: string;
  /** reset: when the trap was sprung; the 24-hour clock: the same. */
  sprungAt?: Date | null;
  /**
   * sprung: when a report that came after a step of the 24-hour clock arrived (sprung-clock.ts
   * reportedLate); reset: when a Set reported after a step came due arrived (setReportedLate); back:
   * when the record that ended the silence arrived.
   */
  reportedAt?: Date;
  /** sprung, reported late: when a later record of the same transaction set the trap again. */
  setAt?: Date;
  /** silent: when the sensor's last record arrived, and its heartbeat period in seconds. */
  lastHeardAt?: Date;
  heartbeatSeconds?: number;
  /** battery_low: the voltage; bait_low: the level. */
  value?: number;
  /** battery_low and bait_low: the alert's threshold. */
  threshold?: number;
  tiltSensor?: string | null;
  /** The clock's now, for "how long ago". */
  now: number;
  alertId?: number;
}

/**
 * When something happened, on the site's wall clock with its zone's short name (docs/alerts.md#events):
 * `14:02 (NZDT)` on the day of `now` at the site; `14:02 on 24 Nov (NZDT)` on another day of its year;
 * `14:02 on 24 Nov 2025 (NZDT)` in another year. A notification read later, or about an event reported
 * late, never passes yesterday's time for today's.
 */
export function siteTime(at: Date, timeZone: string, now: number, always: 'date' | 'when-not-today' = 'when-not-today'): string {
  const parts = formatters(timeZone).wallClock.formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((found) => found.type === type)?.value ?? '';
  const today = siteDay(new Date(now), timeZone);
  const day = siteDay(at, timeZone);
  const date =
    always === 'date' || day !== today
      ? ` on ${Number(part('day'))} ${MONTH_NAMES[Number(part('month')) - 1]}${day.slice(0, 4) === today.slice(0, 4) ? '' : ` ${part('year')}`}`
      : '';
  return `${part('hour')}:${part('minute')}${date} (${part('timeZoneName')})`;
}

/** `2026-11-26`: the date at the site. */
function siteDay(at: Date, timeZone: string): string {
  return formatters(timeZone).day.format(at);
}

/**
 * One pair of formatters per zone, made once: a new Intl.DateTimeFormat cost more of the service's CPU
 * than anything else in writing a notification (docs/benchmark.md#alerts).
 */
const formattersOf = new Map<string, { wallClock: Intl.DateTimeFormat; day: Intl.DateTimeFormat }>();

function formatters(timeZone: string): { wallClock: Intl.DateTimeFormat; day: Intl.DateTimeFormat } {
  let found = formattersOf.get(timeZone);
  if (!found) {
    found = {
      wallClock: new Intl.DateTimeFormat('en-NZ', {
        timeZone,
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
        timeZoneName: 'short',
      }),
      day: new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }),
    };
    formattersOf.set(timeZone, found);
  }
  return found;
}

/**
 * `3 h 20 min`, `45 min`, `2 d 1 h`: whole minutes, so that a time short of the 24-hour deadline never
 * reads as reaching it; under a minute, whole seconds (`20 s`), not `0 min`.
 */
function spokenDuration(ms: number): string {
  if (ms < 60_000) return `${Math.max(0, Math.floor(ms / 1000))} s`;
  const minutes = Math.floor(ms / 60_000);
  const [days, hours, rest] = [Math.floor(minutes / 1440), Math.floor((minutes % 1440) / 60), minutes % 60];
  if (days > 0) return hours > 0 ? `${days} d ${hours} h` : `${days} d`;
  if (hours > 0) return rest > 0 ? `${hours} h ${rest} min` : `${hours} h`;
  return `${rest} min`;
}

/** `, 6 h past the 24-hour deadline` when a trap was set again after its 24 hours were up; otherwise nothing. */
function pastDeadline(sprungAt: Date, setAt: Date): string {
  const over = setAt.getTime() - sprungAt.getTime() - SPRUNG_DEADLINE_SECONDS * 1000;
  return over >= 0 ? `, ${spokenDuration(over)} past the 24-hour deadline` : '';
}

/**
 * `reported 21 h late: the 24-hour deadline is 14:02 on 26 Nov (NZDT)`, or `… passed at …` once it has;
 * `reported 30 h late; set again at 20:15 on 25 Nov (NZDT)` when the same transaction set it again.
 */
function reportedLate(sprungAt: Date, reportedAt: Date, setAt: Date | undefined, zone: string, now: number): string {
  const late = `reported ${spokenDuration(reportedAt.getTime() - sprungAt.getTime())} late`;
  if (setAt) return `${late}; set again at ${siteTime(setAt, zone, now)}${pastDeadline(sprungAt, setAt)}`;
  const deadline = sprungAt.getTime() + SPRUNG_DEADLINE_SECONDS * 1000;
  const when = siteTime(new Date(deadline), zone, now, 'date');
  return deadline <= reportedAt.getTime() ? `${late}: the 24-hour deadline passed at ${when}` : `${late}: the 24-hour deadline is ${when}`;
}

/** The one line each notification says (docs/alerts.md#events), in the site's time zone. */
export function notificationText(event: NotificationEvent, facts: TextFacts): string {
  const { devId, siteTimezone: zone } = facts;
  const at = siteTime(facts.at, zone, facts.now);
  const sprungAt = facts.sprungAt ?? facts.at;
  const since = `sprung ${spokenDuration(facts.now - sprungAt.getTime())} ago (${siteTime(sprungAt, zone, facts.now, 'date')})`;
  switch (event) {
    case 'sprung':
      return facts.reportedAt
        ? `Trap ${devId} sprung at ${at}, ${reportedLate(facts.at, facts.reportedAt, facts.setAt, zone, facts.now)}`
        : `Trap ${devId} sprung at ${at}`;
    case 'reset': {
      const late = facts.reportedAt ? `, reported ${spokenDuration(facts.reportedAt.getTime() - facts.at.getTime())} late` : '';
      return facts.sprungAt
        ? `Trap ${devId} set again at ${at}, after ${spokenDuration(facts.at.getTime() - facts.sprungAt.getTime())} sprung${pastDeadline(facts.sprungAt, facts.at)}${late}`
        : `Trap ${devId} set again at ${at}${late}`;
    }
    case 'silent':
      return facts.lastHeardAt && facts.heartbeatSeconds
        ? `Sensor ${devId} silent: last heard at ${siteTime(facts.lastHeardAt, zone, facts.now)}, nothing since within its heartbeat period of ${spokenDuration(facts.heartbeatSeconds * 1000)} (noticed at ${at})`
        : `Sensor ${devId} silent: nothing heard within its heartbeat period (noticed at ${at})`;
    case 'back': {
      // Silence is measured by arrival: the record's own time is said beside it when that differs.
      const arrived = facts.reportedAt ? siteTime(facts.reportedAt, zone, facts.now) : at;
      return arrived === at
        ? `Sensor ${devId} back: reported at ${at}`
        : `Sensor ${devId} back: reported at ${arrived}, its record dated ${at}`;
    }
    case 'battery_low':
      return `Sensor ${devId} battery low: ${facts.value} V, below ${facts.threshold} V (at ${at})`;
    case 'tilted':
      return `Trap ${devId} tilt sensor says ${facts.tiltSensor ?? 'True'} at ${at}`;
    case 'bait_low':
      return `Bait station ${devId} bait low: ${facts.value}, below ${facts.threshold} (at ${at})`;
    case 'sprung_reminder':
      return `Reminder: trap ${devId} ${since} and not set yet; it must be checked within 24 h of being sprung`;
    case 'sprung_escalation':
      return `Escalation: trap ${devId} ${since} and not set yet; it must be checked within 24 h of being sprung`;
    case 'sprung_deadline':
      return `Deadline: trap ${devId} ${since} and still not set: the 24 hours are up`;
    case 'test':
      return `Test notification of alert ${facts.alertId ?? ''} at ${at}`.replace('  ', ' ');
  }
}
