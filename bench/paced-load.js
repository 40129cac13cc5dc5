// @ts-check
// Submissions at a steady rate, open loop: request i leaves at start + i / rate whether or not the
// earlier ones have been answered, so a slow answer delays none of the next (a closed loop would send
// fewer while the service is slow, and hide it). For a latency at a given rate, not for a throughput:
// that is wrk's (bench/wrk.js), whose CPU does not compete with the servers' as a generator in
// JavaScript would; at a hundred requests a second this one costs little.
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * @typedef {object} PacedAnswer
 * @property {number} index
 * @property {number} sentAt      performance.now() when the request left
 * @property {number} lateMs      how much later than its turn it left
 * @property {number} answeredAt  performance.now() when the whole answer had arrived
 * @property {number} status      0: no answer (connection error or timeout)
 * @property {string} text        the answer's body when not 2xx, or the error
 */

/**
 * POSTs `count` bodies (`body(i)`) to `url`, `rate` per second.
 * @param {{ url: string; headers: Record<string, string>; rate: number; count: number; body: (index: number) => string; timeoutMs?: number }} load
 * @returns {Promise<PacedAnswer[]>}
 */
export async function pacedRun({ url, headers, rate, count, body, timeoutMs = 10_000 }) {
  const send = async (index, due) => {
    const sentAt = performance.now();
    const sent = { index, sentAt, lateMs: sentAt - due };
    try {
      const response = await fetch(url, { method: 'POST', headers, body: body(index), signal: AbortSignal.timeout(timeoutMs) });
      const text = await response.text();
      return { ...sent, answeredAt: performance.now(), status: response.status, text: response.ok ? '' : text.slice(0, 300) };
    } catch (error) {
      return { ...sent, answeredAt: performance.now(), status: 0, text: String(error) };
    }
  };
  const start = performance.now() + 20;
  const answers = [];
  for (let index = 0; index < count; index++) {
    const due = start + (index * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    answers.push(send(index, due));
  }
  return Promise.all(answers);
}
