import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** Whether X-Signature-256 is the HMAC of "<timestamp>.<body>" with the secret the test gave. */
  signed: boolean;
  /** The body read as JSON (null for a text body). */
  json: Record<string, unknown> | null;
}

/**
 * A webhook receiver on an ephemeral port, as a user would write one: it checks the signature with
 * the alert's secret, keeps what arrived, and answers 204, or what `answer` says (503 for a receiver
 * in trouble), or nothing at all (`holds`). `stop()` and `start()` take it down and bring it back on the same port.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  secret = '';
  answer: { status: number; headers?: Record<string, string>; body?: string } = { status: 204 };
  /** How long the receiver takes before it answers (a slow receiver, still inside the send's timeout). */
  delayMs = 0;
  /** A receiver that never answers: each request is kept open until the sender gives up on it. */
  holds = false;
  /** The requests a holding receiver read and never answered; `open` until the sender closed the connection. */
  readonly held: Array<{ body: string; open: boolean }> = [];
  private server?: Server;
  private port = 0;

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const timestamp = String(request.headers['x-signature-timestamp'] ?? '');
        const expected = `sha256=${createHmac('sha256', this.secret).update(`${timestamp}.${body}`).digest('hex')}`;
        const given = String(request.headers['x-signature-256'] ?? '');
        const signed = given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
        let json: Record<string, unknown> | null = null;
        try {
          json = JSON.parse(body) as Record<string, unknown>;
        } catch {
          json = null;
        }
        if (this.holds) {
          const held = { body, open: true };
          this.held.push(held);
          response.once('close', () => (held.open = false));
          return;
        }
        const { status, headers, body: answer } = this.answer;
        if (status < 300) this.received.push({ path: request.url ?? '', headers: request.headers, body, signed, json });
        setTimeout(() => response.writeHead(status, headers).end(answer), this.delayMs);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** The events received, in order, as `event dev_id`. */
  events(): string[] {
    return this.received.map((hook) =>
      `${String(hook.json?.event)} ${String((hook.json?.sensor as { dev_id?: string } | null)?.dev_id ?? '')}`.trim(),
    );
  }
}
