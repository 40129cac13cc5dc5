// @ts-check
// Token endpoint load. A refresh grant revokes the refresh token it consumes, so a fixed-body load
// generator cannot drive it: each worker here chains its own tokens (answer n's refresh_token is
// request n+1's), over keep-alive connections. Password grants repeat the right credentials, each
// worker those of its own user (the flood limit counts a name's attempts in flight).
import http from 'node:http';
import { percentile } from './report.js';

export const TOKEN_PATH = '/api-sensor/oauth/token';

function postForm(agent, baseUrl, form, timeoutMs) {
  const url = new URL(TOKEN_PATH, baseUrl);
  const body = new URLSearchParams(form).toString();
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const req = http.request(
      url,
      {
        method: 'POST',
        agent,
        timeout: timeoutMs,
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': Buffer.byteLength(body) },
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const ms = Number(process.hrtime.bigint() - started) / 1e6;
          resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString('utf8'), ms });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (error) => resolve({ status: 0, text: error.message, ms: Number(process.hrtime.bigint() - started) / 1e6 }));
    req.end(body);
  });
}

/**
 * @param {string} baseUrl
 * @param {Record<string, string>} credentials
 * @param {import('node:http').Agent} [agent]
 * @param {number} [timeoutMs]
 */
export async function passwordGrant(baseUrl, credentials, agent = undefined, timeoutMs = 10_000) {
  const res = await postForm(agent, baseUrl, { grant_type: 'password', ...credentials }, timeoutMs);
  if (res.status !== 200) throw new Error(`password grant answered ${res.status}: ${res.text.slice(0, 300)}`);
  return JSON.parse(res.text);
}

/**
 * A refresh token for each of `count` workers, each from its own password grant, a few at a time
 * (Argon2 is deliberately slow), so that a refresh load can start at full speed.
 * @param {string} baseUrl
 * @param {Record<string, string>} credentials
 * @param {number} count
 * @param {import('node:http').Agent} [agent]
 */
export async function refreshChains(baseUrl, credentials, count, agent = undefined) {
  const chains = [];
  for (let i = 0; i < count; i += 4) {
    const batch = Array.from({ length: Math.min(4, count - i) }, () => passwordGrant(baseUrl, credentials, agent, 30_000));
    chains.push(...(await Promise.all(batch)).map((t) => t.refresh_token));
  }
  return chains;
}

/**
 * Runs `concurrency` workers for `durationSec`; `kind` is `refresh` or `password`. Refresh workers
 * start from `chains` when given (one refresh token each), else from password grants made before the
 * clock starts.
 * `credentials`: client_id, client_secret, username, password; `users`: `{ username, password }` for the
 * password workers, one each (the credentials' user when there are none).
 * @param {{ baseUrl: string; kind: string; credentials: Record<string, string>; users?: Array<{ username: string; password: string }>;
 *   concurrency: number; durationSec: number; timeoutMs?: number; chains?: string[] }} options
 */
export async function tokenRun({ baseUrl, kind, credentials, users = [], concurrency, durationSec, timeoutMs = 10_000, chains: given }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const { client_id, client_secret, username, password } = credentials;
  const latencies = [];
  const statusCodes = {};
  const samples = [];
  let ok = 0;
  let failed = 0;

  const chains = kind !== 'refresh' ? [] : given ? [...given] : await refreshChains(baseUrl, credentials, concurrency, agent);

  const started = Date.now();
  const deadline = started + durationSec * 1000;
  const worker = async (index) => {
    while (Date.now() < deadline) {
      const own = users[index % Math.max(1, users.length)] ?? { username, password };
      const form =
        kind === 'refresh'
          ? { grant_type: 'refresh_token', client_id, client_secret, refresh_token: chains[index] }
          : { grant_type: 'password', client_id, client_secret, username: own.username, password: own.password };
      const res = await postForm(agent, baseUrl, form, timeoutMs);
      statusCodes[res.status] = (statusCodes[res.status] ?? 0) + 1;
      latencies.push(res.ms);
      let body = null;
      try {
        body = JSON.parse(res.text);
      } catch {
        // counted as a failure below
      }
      if (res.status === 200 && body?.access_token && body?.refresh_token) {
        ok++;
        if (kind === 'refresh') chains[index] = body.refresh_token;
      } else {
        failed++;
        if (samples.length < 5) samples.push({ status: res.status, body: res.text.slice(0, 300) });
        // Broken chain: start a new one (not timed as a refresh); a worker that cannot, stops.
        if (kind === 'refresh') {
          try {
            chains[index] = (await passwordGrant(baseUrl, credentials, agent, 30_000)).refresh_token;
          } catch (error) {
            if (samples.length < 5) samples.push({ status: 'regrant', body: /** @type {Error} */ (error).message.slice(0, 300) });
            return;
          }
        }
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, (_, i) => worker(i)));
  const elapsedSec = (Date.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    kind,
    concurrency,
    durationSec: elapsedSec,
    grantsPerSec: ok / elapsedSec,
    ok,
    failed,
    statusCodes,
    latencyMs: { p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: latencies.at(-1) ?? NaN },
    errorSamples: samples,
  };
}
