import { Agent as HttpAgent, type IncomingMessage, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { shownUrl } from '../shown-url.js';
import type { WebhookRequest } from './webhook-request.js';
import { outcomeOfStatus, type SendOutcome } from './send-outcome.js';

/** A send gives up after this long: connecting, sending, the answer's headers and what is read of its body together. */
const WEBHOOK_TIMEOUT_MS = 5000;
/** The answer's body is read up to this much (shown by alert:test, kept short in the log). */
const ANSWER_LIMIT_BYTES = 64 * 1024;

/** Connections kept open between sends to a receiver, as fetch keeps them. */
const AGENTS = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };

/**
 * POSTs a webhook request: redirects are not followed (the answer is the outcome), at most 5 s, and
 * at most 64 KiB of the answer read, so that a slow or chatty receiver cannot hold a sender. Sent
 * with node:http rather than fetch, whose streams and header objects cost the service more CPU per
 * notification than the rest of its delivery (docs/benchmark.md#alerts).
 */
export function sendWebhook(url: string, request: WebhookRequest, now: () => number): Promise<SendOutcome> {
  const signal = AbortSignal.timeout(WEBHOOK_TIMEOUT_MS);
  return new Promise((resolve) => {
    let settled = false;
    const settle = (outcome: SendOutcome) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    // The reason is logged and kept in last_error: never with the URL's secret path or query.
    const failed = (error: unknown) =>
      settle({ kind: 'retry', reason: signal.aborted ? 'timed out after 5 s' : connectionError(error).split(url).join(shownUrl(url)) });
    const answered = (response: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const outcome = () => {
        const retryAfter = response.headers['retry-after'] ?? null;
        const answer = Buffer.concat(chunks).subarray(0, ANSWER_LIMIT_BYTES).toString('utf8');
        settle(outcomeOfStatus(response.statusCode ?? 0, retryAfter, now(), answer));
      };
      response.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size < ANSWER_LIMIT_BYTES) return;
        outcome();
        response.destroy();
      });
      response.on('end', outcome);
      response.on('error', failed);
      response.on('close', () => failed(new Error('the answer was cut off')));
    };
    try {
      const target = new URL(url);
      const secure = target.protocol === 'https:';
      const headers = { ...request.headers, 'Content-Length': String(Buffer.byteLength(request.body)) };
      const options = { method: 'POST', headers, agent: secure ? AGENTS.https : AGENTS.http, signal };
      const sending = secure ? httpsRequest(target, options, answered) : httpRequest(target, options, answered);
      sending.on('error', failed);
      sending.end(request.body);
    } catch (error) {
      failed(error);
    }
  });
}

/** The error's code (ECONNREFUSED, ENOTFOUND, …) rather than its longer message. */
function connectionError(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  return code ?? message ?? String(error);
}
