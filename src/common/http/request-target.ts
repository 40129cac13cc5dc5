import type { IncomingMessage, ServerOptions } from 'node:http';

/** The 400 of an HTTP/1.1 request without a `Host` header, which RFC 9112 §3.2 has a server refuse. */
export const HOST_REQUIRED_MESSAGE = 'Bad request: an HTTP/1.1 request must carry a Host header.';

/**
 * Node's options for the service's port and METRICS_PORT alike. Node would answer a request without
 * `Host` itself, a bare 400 with no body or security headers; the service answers it instead
 * (`requestRefusal`), as every other 400 (docs/interface.md#errors).
 */
export const HTTP_SERVER_OPTIONS: ServerOptions = { requireHostHeader: false };

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
 * Why a request is refused 400 whatever its route, or undefined: an HTTP/1.1 request without `Host`,
 * and a path segment whose percent-encoding does not decode, named as Express's router names it.
 */
export function requestRefusal(request: IncomingMessage): string | undefined {
  if (request.httpVersionMajor === 1 && request.httpVersionMinor === 1 && request.headers.host === undefined) {
    return HOST_REQUIRED_MESSAGE;
  }
  const undecodable = targetPath(request.url ?? '/')
    .split('/')
    .find((segment) => !decodes(segment));
  return undecodable === undefined ? undefined : `Failed to decode param '${undecodable}'`;
}

function decodes(segment: string): boolean {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}
