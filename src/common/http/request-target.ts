import type { IncomingMessage } from 'node:http';

/** The 400 of an HTTP/1.1 request without a `Host` header, which RFC 9112 §3.2 has a server refuse. */
export const HOST_REQUIRED_MESSAGE = 'Bad request: an HTTP/1.1 request must carry a Host header.';

/** The 400 of a request with more than one `Host` header, which RFC 9112 §3.2 has a server refuse too. */
export const HOST_REPEATED_MESSAGE = 'Bad request: a request must carry exactly one Host header, not several.';

/**
 * The headers a request may carry once at most, besides `Host`: Node keeps only the first of each in
 * `headers`, so a second would be ignored unseen, a body read by one type and sent with another, or
 * the caller taken for the first of two credentials.
 */
const SINGLE_HEADERS = ['Content-Type', 'Authorization'] as const;

/** The 400 of a request with a header of `SINGLE_HEADERS` more than once. */
export const repeatedHeaderMessage = (name: (typeof SINGLE_HEADERS)[number]): string =>
  `Bad request: a request must carry at most one ${name} header, not several.`;

/** The 417 of an `Expect` other than `100-continue`, the only expectation HTTP defines (RFC 9110 §10.1.1). */
export const EXPECTATION_FAILED_MESSAGE = 'Expectation failed: the only Expect this service meets is 100-continue.';

/** A request refused whatever its route: its status and the `message` of its JSON body. */
export interface RequestRefusal {
  status: 400 | 417;
  message: string;
}

/**
 * The path of a request target as Express reads it (parseurl): origin-form `/path?query`, or the
 * absolute-form `http://host/path?query` a client talking to a proxy sends (RFC 9112 §3.2.2).
 */
export function targetPath(url: string): string {
  if (url.startsWith('/')) return url.split('?')[0]!;
  try {
    return new URL(url).pathname;
  } catch {
    return url.split('?')[0]!;
  }
}

/**
 * Why a request is refused whatever its route, or undefined: 400 for an HTTP/1.1 request without
 * `Host`, one with several, or with several of `SINGLE_HEADERS`, and a path segment whose percent-encoding does not decode, named as Express's router
 * names it; 417 for an expectation the service cannot meet (only Node's 'checkExpectation' hands
 * such a request on: `answerClientErrors`).
 */
export function requestRefusal(request: IncomingMessage): RequestRefusal | undefined {
  const http11 = request.httpVersionMajor === 1 && request.httpVersionMinor === 1;
  if (http11 && request.headers.host === undefined) return { status: 400, message: HOST_REQUIRED_MESSAGE };
  if (countHeader(request, 'host') > 1) return { status: 400, message: HOST_REPEATED_MESSAGE };
  const repeated = SINGLE_HEADERS.find((name) => countHeader(request, name.toLowerCase()) > 1);
  if (repeated !== undefined) return { status: 400, message: repeatedHeaderMessage(repeated) };
  const undecodable = targetPath(request.url ?? '/')
    .split('/')
    .find((segment) => !decodes(segment));
  if (undecodable !== undefined) return { status: 400, message: `Failed to decode param '${undecodable}'` };
  // Node's own test for 100-continue (lib/_http_server.js), which it answers itself.
  if (http11 && request.headers.expect !== undefined && !/(?:^|\W)100-continue(?:$|\W)/i.test(request.headers.expect)) {
    return { status: 417, message: EXPECTATION_FAILED_MESSAGE };
  }
  return undefined;
}

/** Node's `headersDistinct` holds every value of a header, where `headers` keeps the first of these. */
function countHeader(request: IncomingMessage, name: string): number {
  return request.headersDistinct[name]?.length ?? 0;
}

function decodes(segment: string): boolean {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}
