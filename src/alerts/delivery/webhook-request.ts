import { createHmac } from 'node:crypto';
import { formatUtcTimestamp } from '../../serialization/timestamp-format.js';
import type { WebhookFormat } from '../alert-events.js';
import type { AlertNotificationEntity } from '../alert-notification.entity.js';

export interface WebhookRequest {
  body: string;
  headers: Record<string, string>;
}

/**
 * The webhook's request for a notification (docs/alerts.md#webhooks): the body in the alert's
 * format, and the headers that let the receiver drop a repeat (Idempotency-Key) and check that the
 * service sent it (X-Signature-256 over "<timestamp>.<body>").
 */
export function webhookRequest(
  notification: AlertNotificationEntity,
  alert: { format: WebhookFormat; secret: string | null },
  baseUrl: string,
  nowSeconds: number,
): WebhookRequest {
  const body =
    alert.format === 'text'
      ? notification.text
      : JSON.stringify(alert.format === 'slack' ? { text: slackText(notification.text) } : jsonBody(notification, baseUrl));
  const timestamp = String(nowSeconds);
  return {
    body,
    headers: {
      'Content-Type': alert.format === 'text' ? 'text/plain; charset=utf-8' : 'application/json',
      'Idempotency-Key': String(notification.id),
      'X-Signature-Timestamp': timestamp,
      'X-Signature-256': `sha256=${signature(alert.secret ?? '', timestamp, body)}`,
    },
  };
}

/**
 * The text with `&`, `<` and `>` escaped, as Slack requires of every text it is sent
 * (https://api.slack.com/reference/surfaces/formatting#escaping): a dev_id then never reads as a
 * `<!channel>` mention or a `<url|label>` link, in Slack or in Mattermost, which rewrites the same
 * sequences and shows the entities as the characters (docs/alerts.md#webhooks).
 */
export function slackText(text: string): string {
  return text.replace(/[&<>]/g, (character) => SLACK_ESCAPES[character]!);
}

const SLACK_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/** Hex HMAC-SHA256 of "<timestamp>.<body>" with the alert's secret. */
function signature(secret: string, timestamp: string, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

function jsonBody(notification: AlertNotificationEntity, baseUrl: string): Record<string, unknown> {
  return {
    notification_id: notification.id,
    alert_id: notification.alertId,
    event: notification.event,
    occurred_at: formatUtcTimestamp(notification.occurredAt),
    text: notification.text,
    sensor: JSON.parse(notification.sensor) as unknown,
    record: notification.recordNid === null ? null : { nid: notification.recordNid, url: `${baseUrl}/node/${notification.recordNid}` },
  };
}
