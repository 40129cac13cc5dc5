import type { Test } from 'supertest';
import { connect } from 'node:net';

/** Reads the body as the exact text sent, whatever its type, so it can be compared byte for byte. */
export function asText(call: Test): Test {
  return call.buffer(true).parse((response, done) => {
    const stream = response as unknown as NodeJS.ReadableStream;
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => done(null, Buffer.concat(chunks).toString('utf8')));
  });
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends `text` as it stands over a fresh connection (half-closing it after when `halfClose`) and reads
 * what the server writes until it closes the connection: for requests no HTTP client would send.
 */
export function rawExchange(port: number, text: string | Buffer, { halfClose = false } = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect({ host: '127.0.0.1', port }, () => {
      socket.write(text);
      if (halfClose) socket.end();
    });
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const answer = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = answer.split(/\r\n\r\n(.*)/s);
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
    });
  });
}
