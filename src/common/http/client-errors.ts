import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** The 400 of a request whose body ends before its length (the client gave up or half-closed). */
export const REQUEST_ABORTED_MESSAGE = 'Request aborted';

/** The 400 of a CONNECT request: the service is no proxy and tunnels to nowhere. */
export const CONNECT_REFUSED_MESSAGE = 'Bad request: CONNECT is not served here; this is not a proxy.';

/** A Node.js HTTP parser error, with the code that says what went wrong. */
type ClientError = Error & { code?: string };

/**
 * What Node's HTTP server answers by itself, before any route sees the request, in the service's
 * `{"message"}` form: 408 for a request not received in full within its deadline, 431 for headers
 * over Node's limit, 413 for chunk extensions over it, 400 for the rest (a malformed request, a body
 * cut short).
 */
function clientErrorAnswer(error: ClientError, bodyTimeoutMs: number): { status: number; message: string } {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, message: `The request was not received in full within ${bodyTimeoutMs} ms.` };
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, message: 'The request header fields are too large.' };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, message: 'The chunk extensions of the request body are too large.' };
    case 'HPE_INVALID_EOF_STATE':
      return { status: 400, message: REQUEST_ABORTED_MESSAGE };
    default:
      return { status: 400, message: 'Bad request: the request is not valid HTTP/1.1.' };
  }
}

/**
 * Bounds how long a request may take to arrive (headers and body; Node's own default is five minutes,
 * a connection held all that time by a body shorter than its `Content-Length`) and answers the
 * errors of Node's HTTP parser, a CONNECT and an unmet Expect, with JSON bodies (docs/interface.md#errors). Set before the server
 * listens: Node reads the checking interval then.
 */
export function answerClientErrors(
  server: Server,
  bodyTimeoutMs: number,
  /** The security headers every answer carries (`securityHeaderFields`). */
  securityHeaders: ReadonlyArray<readonly [name: string, value: string]>,
): void {
  const extraHeaders = securityHeaders.map(([name, value]) => `${name}: ${value}\r\n`).join('');
  server.requestTimeout = bodyTimeoutMs;
  server.headersTimeout = bodyTimeoutMs;
  // Node checks the deadlines every 30 s by default: a tenth of the deadline keeps the answer close to it.
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = Math.min(Math.ceil(bodyTimeoutMs / 10), 1000);
  const answer = (socket: Socket, status: number, message: string): void => {
    const body = JSON.stringify({ message });
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\n${extraHeaders}` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  };
  server.on('clientError', (error: ClientError, socket: Socket) => {
    // As Node itself does: answer only when nothing of a response has gone out on this connection.
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (error.code !== 'ECONNRESET' && socket.writable && !inFlight?.headersSent) {
      const { status, message } = clientErrorAnswer(error, bodyTimeoutMs);
      answer(socket, status, message);
    }
    socket.destroy(error);
  });
  // Node would answer an Expect other than 100-continue with a bare 417; routed instead, the request
  // is refused 417 in the service's form (requestRefusal) with every header an answer carries.
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => server.emit('request', request, response));
  // Node hands a CONNECT to its 'connect' listeners and, with none, closes the connection unanswered.
  server.on('connect', (_request: IncomingMessage, socket: Socket) => {
    if (socket.writable) answer(socket, 400, CONNECT_REFUSED_MESSAGE);
    socket.end();
  });
}
