// @ts-check
// The receiver of the alerts scenario's webhooks: plain node:http in the bench's own process, so that
// a notification's arrival and a record's 201 are timed on one clock. It answers 200 at once with an
// empty body and keeps every request it got: when it arrived, its notification id (Idempotency-Key),
// what it says, and whether its signature is the alert's (docs/alerts.md#webhooks).
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import { performance } from 'node:perf_hooks';

/**
 * @typedef {object} Receipt
 * @property {number} id      the notification id
 * @property {number} at      performance.now() when its body had arrived
 * @property {string} event
 * @property {string} devId   the sensor's
 * @property {boolean} signed X-Signature-256 is the HMAC of `<timestamp>.<body>` with the alert's secret
 */

function signedWith(secret, headers, body) {
  const expected = `sha256=${createHmac('sha256', secret).update(`${headers['x-signature-timestamp']}.${body}`).digest('hex')}`;
  const given = String(headers['x-signature-256'] ?? '');
  return given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

/** Listens on a free port of 127.0.0.1 for the webhooks of alerts created with `secret`. */
export async function startWebhookReceiver(secret) {
  /** @type {Receipt[]} */
  const receipts = [];
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const at = performance.now();
      const body = Buffer.concat(chunks).toString('utf8');
      /** @type {any} */
      let said = {};
      try {
        said = JSON.parse(body);
      } catch {
        // kept with what it lacks: no event, no sensor
      }
      receipts.push({
        id: Number(req.headers['idempotency-key']),
        at,
        event: String(said.event ?? ''),
        devId: String(said.sensor?.dev_id ?? ''),
        signed: signedWith(secret, req.headers, body),
      });
      res.writeHead(200, { 'Content-Length': '0' }).end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    url: `http://127.0.0.1:${port}/alerts`,
    receipts,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

/** @typedef {Awaited<ReturnType<typeof startWebhookReceiver>>} WebhookReceiver */
