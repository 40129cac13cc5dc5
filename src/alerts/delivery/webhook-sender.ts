import { shownUrl } from '../shown-url.js';
import type { WebhookRequest } from './webhook-request.js';
import { outcomeOfStatus, type SendOutcome } from './send-outcome.js';

/** A send gives up after this long: connecting, sending and the answer's headers together. */
const WEBHOOK_TIMEOUT_MS = 5000;
/** The answer's body is read up to this much (shown by alert:test, kept short in the log). */
const ANSWER_LIMIT_BYTES = 64 * 1024;

/**
 * POSTs a webhook request: redirects are not followed (the answer is the outcome), at most 5 s, and
 * at most 64 KiB of the answer read, so that a slow or chatty receiver cannot hold a sender.
 */
export async function sendWebhook(url: string, request: WebhookRequest, now: () => number): Promise<SendOutcome> {
  const signal = AbortSignal.timeout(WEBHOOK_TIMEOUT_MS);
  try {
    const response = await fetch(url, { method: 'POST', headers: request.headers, body: request.body, redirect: 'manual', signal });
    const answer = await readAtMost(response, ANSWER_LIMIT_BYTES);
    return outcomeOfStatus(response.status, response.headers.get('retry-after'), now(), answer);
  } catch (error) {
    // The reason is logged and kept in last_error: never with the URL's secret path or query.
    const reason = signal.aborted ? 'timed out after 5 s' : connectionError(error).split(url).join(shownUrl(url));
    return { kind: 'retry', reason };
  }
}

async function readAtMost(response: Response, limit: number): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    // Not awaited: a receiver that stalls mid-body must not hold the send past its answer.
    void reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
}

/** The cause's code (ECONNREFUSED, ENOTFOUND, …) rather than fetch's generic "fetch failed". */
function connectionError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}
