import type { NotificationEvent } from './alert-events.js';

export interface TextFacts {
  devId: string;
  /** When it happened: the record's device time, or the clock's. */
  at: Date;
  siteTimezone: string;
  /** reset: when the trap was sprung; the 24-hour clock: the same. */
  sprungAt?: Date | null;
  /** battery_low: the voltage; bait_low: the level. */
  value?: number;
  /** battery_low and bait_low: the alert's threshold. */
  threshold?: number;
  tiltSensor?: string | null;
  /** The clock's now, for "how long ago". */
  now: number;
  alertId?: number;
}

/** `14:02 (NZDT)`: the site's wall clock and its zone's short name. */
export function siteClockTime(at: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-NZ', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  }).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((found) => found.type === type)?.value ?? '';
  return `${part('hour')}:${part('minute')} (${part('timeZoneName')})`;
}

/** `26 Nov 14:02 (NZDT)` */
function siteDayAndTime(at: Date, timeZone: string): string {
  const day = new Intl.DateTimeFormat('en-NZ', { timeZone, day: 'numeric', month: 'short' }).format(at);
  return `${day} ${siteClockTime(at, timeZone)}`;
}

/** `3 h 20 min`, `45 min`, `2 d 1 h` */
function spokenDuration(ms: number): string {
  const minutes = Math.max(0, Math.round(ms / 60_000));
  const [days, hours, rest] = [Math.floor(minutes / 1440), Math.floor((minutes % 1440) / 60), minutes % 60];
  if (days > 0) return hours > 0 ? `${days} d ${hours} h` : `${days} d`;
  if (hours > 0) return rest > 0 ? `${hours} h ${rest} min` : `${hours} h`;
  return `${rest} min`;
}

/** The one line each notification says (docs/alerts.md#events), in the site's time zone. */
export function notificationText(event: NotificationEvent, facts: TextFacts): string {
  const { devId, siteTimezone: zone } = facts;
  const at = siteClockTime(facts.at, zone);
  const sprungAt = facts.sprungAt ?? facts.at;
  const since = `sprung ${spokenDuration(facts.now - sprungAt.getTime())} ago (${siteDayAndTime(sprungAt, zone)})`;
  switch (event) {
    case 'sprung':
      return `Trap ${devId} sprung at ${at}`;
    case 'reset':
      return facts.sprungAt
        ? `Trap ${devId} set again at ${at}, after ${spokenDuration(facts.at.getTime() - facts.sprungAt.getTime())} sprung`
        : `Trap ${devId} set again at ${at}`;
    case 'silent':
      return `Sensor ${devId} silent: nothing heard within its heartbeat period (noticed at ${at})`;
    case 'back':
      return `Sensor ${devId} back: reported at ${at}`;
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
