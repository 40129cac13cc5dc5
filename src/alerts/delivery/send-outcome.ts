/** What became of one send (docs/alerts.md#delivery). */
export type SendOutcome =
  | { kind: 'delivered'; status?: number; answer?: string }
  /** Worth trying again: no connection, a timeout, 408, 429 or 5xx; `retryAfterMs` when the receiver said. */
  | { kind: 'retry'; reason: string; status?: number; retryAfterMs?: number; answer?: string }
  /** Another 4xx (or a redirect, which is not followed): trying again would get the same answer. */
  | { kind: 'failed'; reason: string; status?: number; answer?: string };

/** How an HTTP answer ends a send. */
export function outcomeOfStatus(status: number, retryAfter: string | null, now: number, answer?: string): SendOutcome {
  if (status >= 200 && status < 300) return { kind: 'delivered', status, answer };
  if (status === 408 || status === 429 || status >= 500) {
    return { kind: 'retry', reason: `HTTP ${status}`, status, retryAfterMs: retryAfterMs(retryAfter, now), answer };
  }
  return { kind: 'failed', reason: `HTTP ${status}`, status, answer };
}

/** Retry-After as seconds or an HTTP date (RFC 9110 §10.2.3); undefined when absent or unreadable. */
function retryAfterMs(value: string | null, now: number): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Tries are spread this far apart at most. */
const MAX_BACKOFF_MS = 15 * 60_000;
const FIRST_BACKOFF_MS = 1000;

/**
 * The wait before try number `attempts + 1`: doubling from 1 s up to 15 min, each drawn from the
 * upper half of its range (jitter, so that receivers coming back are not met by every sender at
 * once); the receiver's Retry-After when longer.
 */
function backoffMs(attempts: number, retryAfter: number | undefined, random: () => number): number {
  const ceiling = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** Math.max(0, attempts - 1));
  const drawn = ceiling * (0.5 + random() / 2);
  return Math.max(drawn, Math.min(retryAfter ?? 0, 3600_000));
}

/**
 * When a notification (or an email's notifications) tried `attempts` times is next due: `now` plus
 * the backoff, up to the whole second. MySQL and MariaDB `datetime` columns keep no fraction of a
 * second, and one cut off would make a retry of less than a second due at once.
 */
export function nextAttemptAt(now: number, attempts: number, retryAfter: number | undefined, random = Math.random): Date {
  return new Date(Math.ceil((now + backoffMs(attempts, retryAfter, random)) / 1000) * 1000);
}
