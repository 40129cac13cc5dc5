/** The events an alert may send (docs/alerts.md#events). */
export const ALERT_EVENTS = [
  'sprung',
  'reset',
  'silent',
  'back',
  'battery_low',
  'tilted',
  'bait_low',
  'sprung_reminder',
  'sprung_escalation',
  'sprung_deadline',
] as const;

export type AlertEvent = (typeof ALERT_EVENTS)[number];

/** What a notification may be about: an event, or `alert:test`. */
export type NotificationEvent = AlertEvent | 'test';

export type AlertChannel = 'webhook' | 'email';

export const WEBHOOK_FORMATS = ['json', 'slack', 'text'] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

export type Recipient = 'primary' | 'escalation';

export type NotificationStatus = 'pending' | 'delivered' | 'failed';

/** The 24-hour clock of a live-capture trap (Animal Welfare Act 1999): sprung_deadline this long after sprung. */
export const SPRUNG_DEADLINE_SECONDS = 24 * 3600;
export const DEFAULT_REMIND_AFTER_SECONDS = 12 * 3600;
export const DEFAULT_ESCALATE_AFTER_SECONDS = 20 * 3600;
/** battery_low is armed again only once the voltage is this far above the threshold. */
export const BATTERY_REARM_VOLTS = 0.1;
