import { createHash } from 'node:crypto';
import type { AlertNotificationEntity } from '../../alert-notification.entity.js';

/** Notifications in one message at most; more to the same address go in the next. */
export const MAX_NOTIFICATIONS_PER_EMAIL = 500;

export interface EmailMessage {
  subject: string;
  text: string;
  /** The same for the same notifications, so that a mail client can drop a repeated send. */
  messageId: string;
}

type Listed = Pick<AlertNotificationEntity, 'id' | 'alertId' | 'text' | 'recordNid'>;

/**
 * One email for the notifications to one address, oldest first (docs/alerts.md#email): each says its
 * one line of notification-text.ts, with a link to its record; the subject is the oldest one's line,
 * and how many more follow.
 */
export function emailMessage(notifications: Listed[], baseUrl: string): EmailMessage {
  const [first] = notifications;
  if (!first) throw new Error('An email needs at least one notification');
  const more = notifications.length - 1;
  const subject = oneLine(more === 0 ? first.text : `${first.text} (and ${more} more)`);
  const entries = notifications.map(
    (notification) =>
      `${oneLine(notification.text)}${notification.recordNid === null ? '' : `\n  ${baseUrl}/node/${notification.recordNid}`}`,
  );
  const alerts = [...new Set(notifications.map((notification) => notification.alertId))].join(', ');
  const ids = notifications.map((notification) => notification.id);
  const text = [
    ...(more === 0 ? [] : [`${notifications.length} notifications, oldest first:`, '']),
    entries.join(more === 0 ? '\n' : '\n\n'),
    '',
    '-- ',
    `Sent by ${baseUrl} for alert ${alerts} (notification ${idRanges(ids)}).`,
    '',
  ].join('\n');
  const digest = createHash('sha256').update(ids.join(',')).digest('hex').slice(0, 32);
  return { subject, text, messageId: `<alert-notifications.${digest}@${new URL(baseUrl).hostname}>` };
}

/** `17-316, 320`: ids in order, runs of consecutive ids as a range (for the message and the log). */
export function idRanges(ids: number[], separator = ', '): string {
  const sorted = [...ids].sort((a, b) => a - b);
  const runs: string[] = [];
  for (let start = 0; start < sorted.length;) {
    let end = start;
    while (end + 1 < sorted.length && sorted[end + 1] === sorted[end]! + 1) end++;
    runs.push(end === start ? String(sorted[start]) : `${sorted[start]}-${sorted[end]}`);
    start = end + 1;
  }
  return runs.join(separator);
}

/** A device id is the sender's to choose: no line break of it may reach a header. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
