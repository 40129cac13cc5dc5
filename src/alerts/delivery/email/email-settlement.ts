import type { AlertNotificationEntity } from '../../alert-notification.entity.js';
import { nextAttemptAt, type SendOutcome } from '../send-outcome.js';

type Claimed = Pick<AlertNotificationEntity, 'id' | 'created' | 'attempts'>;

/** What becomes of the notifications one message carried. */
export interface EmailSettlement {
  delivered: number[];
  failed: number[];
  retry: number[];
  /** When the `retry` ones are next due. */
  nextAttemptAt?: Date;
}

/**
 * The notifications of one message share its outcome (docs/alerts.md#email): accepted, all are
 * delivered; refused for good, all fail; otherwise they are tried again together after the backoff
 * of the most tried of them, except those written `retryForMs` ago or more, which fail (each
 * notification has its own 24 hours, however long the others waited).
 */
export function settleEmail(
  claimed: Claimed[],
  outcome: SendOutcome,
  now: number,
  retryForMs: number,
  random = Math.random,
): EmailSettlement {
  const ids = claimed.map((notification) => notification.id);
  if (outcome.kind === 'delivered') return { delivered: ids, failed: [], retry: [] };
  if (outcome.kind === 'failed') return { delivered: [], failed: ids, retry: [] };
  const expired = (notification: Claimed) => now - notification.created.getTime() >= retryForMs;
  const retry = claimed.filter((notification) => !expired(notification));
  const attempts = Math.max(0, ...retry.map((notification) => notification.attempts));
  return {
    delivered: [],
    failed: claimed.filter(expired).map((notification) => notification.id),
    retry: retry.map((notification) => notification.id),
    ...(retry.length > 0 && { nextAttemptAt: nextAttemptAt(now, attempts, outcome.retryAfterMs, random) }),
  };
}
