import { ALERT_EVENTS, type AlertEvent, SPRUNG_DEADLINE_SECONDS, WEBHOOK_FORMATS, type WebhookFormat } from '../alert-events.js';
import { InvalidAlertInputError } from './alert-errors.js';

const fail = (message: string): never => {
  throw new InvalidAlertInputError(message);
};

/** `all`, or a comma list of event names (docs/alerts.md#events). */
function parseEvents(text: string): AlertEvent[] {
  if (text.trim() === 'all') return [...ALERT_EVENTS];
  const names = text.split(',').map((name) => name.trim());
  for (const name of names) {
    if (!(ALERT_EVENTS as readonly string[]).includes(name))
      fail(`Unknown event "${name}" in --on: use all, or a comma list of ${ALERT_EVENTS.join(', ')}.`);
  }
  return [...new Set(names as AlertEvent[])];
}

/** Volts below which `battery_low` is raised when `--battery-below` is not given: the fleet page's low mark. */
const DEFAULT_BATTERY_BELOW = '3.3';

/**
 * An alert's events with the thresholds they need (docs/alerts.md#events): `battery_low` without
 * `--battery-below` uses 3.3 V; `bait_low` has no level that suits every bait, so it needs
 * `--bait-below` when named, and `all` leaves it out without one.
 */
export function eventsAndThresholds(
  onText: string,
  batteryBelow: string | undefined,
  baitBelow: string | undefined,
): { events: AlertEvent[]; batteryBelow?: string; baitBelow?: string } {
  let events = parseEvents(onText);
  if (baitBelow === undefined && events.includes('bait_low')) {
    if (onText.trim() !== 'all') fail('bait_low needs --bait-below N: the bait level below which a Baitlevel report is low.');
    events = events.filter((event) => event !== 'bait_low');
  }
  return {
    events,
    batteryBelow: batteryBelow ?? (events.includes('battery_low') ? DEFAULT_BATTERY_BELOW : undefined),
    baitBelow,
  };
}

/** `90s`, `15m`, `12h` as seconds: at least one second, less than 24 h (a step then would come with the deadline or after it). */
export function parseDuration(text: string, option: string): number {
  const match = /^(\d{1,6})(s|m|h)$/.exec(text.trim());
  const seconds = match ? Number(match[1]) * { s: 1, m: 60, h: 3600 }[match[2] as 's' | 'm' | 'h'] : NaN;
  if (!(seconds >= 1 && seconds < SPRUNG_DEADLINE_SECONDS)) {
    fail(`--${option} must be a duration such as 90s, 15m or 12h, less than the 24h deadline (got "${text}").`);
  }
  return seconds;
}

/** The reminder comes before the escalation (docs/alerts.md#the-24-hour-clock). */
export function checkClockSteps(remindAfter: number, escalateAfter: number | null, escalateAfterGiven: boolean): void {
  if (escalateAfter !== null && remindAfter >= escalateAfter) {
    fail(
      `--remind-after (${spokenSeconds(remindAfter)}) must be shorter than --escalate-after (${spokenSeconds(escalateAfter)}${
        escalateAfterGiven ? '' : ', the default'
      }): the reminder comes before the escalation.`,
    );
  }
}

/** `90s`, `15m`, `12h`: as the options take a duration. */
function spokenSeconds(seconds: number): string {
  if (seconds % 3600 === 0) return `${seconds / 3600}h`;
  return seconds % 60 === 0 ? `${seconds / 60}m` : `${seconds}s`;
}

/** An http(s) URL, without user and password (they would be logged with the origin). */
export function parseWebhookUrl(text: string, option: string): string {
  // The URL parser would drop a CR, LF or tab silently and take a different address than the one given.
  if (/[\s\p{Cc}]/u.test(text)) fail(`--${option} must be a URL without spaces or control characters.`);
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    fail(`--${option} must be an http:// or https:// URL (got "${text}").`);
  }
  if (url!.protocol !== 'http:' && url!.protocol !== 'https:') fail(`--${option} must be an http:// or https:// URL (got "${text}").`);
  if (url!.username || url!.password) fail(`--${option} must not carry a user name or password; put a token in the path or use --secret.`);
  return url!.href;
}

/** One address, `name@host.domain`, as SMTP takes it. */
export function parseEmail(text: string, option: string): string {
  if (!/^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[^\s@<>(),;:"]+$/.test(text) || text.length > 254) {
    fail(`--${option} must be one email address such as trapper@example.org (got "${text}").`);
  }
  return text;
}

export function parseFormat(text: string | undefined): WebhookFormat {
  if (text === undefined) return 'json';
  if (!(WEBHOOK_FORMATS as readonly string[]).includes(text))
    fail(`--format must be one of ${WEBHOOK_FORMATS.join(', ')} (got "${text}").`);
  return text as WebhookFormat;
}

/** What each threshold is, with an example in its own unit, for the message refusing one. */
const THRESHOLDS: Record<'battery-below' | 'bait-below', string> = {
  'battery-below': 'a voltage above 0, such as 3.3',
  'bait-below': 'a bait level above 0, such as 20',
};

/** A positive decimal with at most three decimals, below 1,000,000 (the column's range). */
export function parseThreshold(text: string, option: 'battery-below' | 'bait-below'): string {
  if (!/^\d{1,6}(\.\d{1,3})?$/.test(text.trim()) || Number(text) <= 0)
    fail(`--${option} must be ${THRESHOLDS[option]}, with at most three decimals (got "${text}").`);
  return text.trim();
}

/** Printable ASCII, 16 to 128 characters. */
export function parseSecret(text: string): string {
  if (!/^[\x21-\x7e]{16,128}$/.test(text)) fail('--secret must be 16 to 128 printable ASCII characters, without spaces.');
  return text;
}
