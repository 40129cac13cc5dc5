import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * The service's helmet options, on every port it answers on. TLS ends at the proxy; over plain http
 * (local use) an upgrade directive would break the docs page.
 */
export const SECURITY_HEADER_OPTIONS: HelmetOptions = { contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } };

type Middleware = (request: IncomingMessage, response: ServerResponse, next: (error?: unknown) => void) => void;

/**
 * Helmet's headers, worked out once: with static options (no nonce or other function of the request)
 * helmet sets the same headers on every answer, yet runs a dozen middlewares per request to do so.
 * Helmet is run here once against a recording response; the middleware returned sets what it set and
 * removes what it removed, in the same order.
 */
export function securityHeaders(options: HelmetOptions): Middleware {
  const steps = recordHelmet(options);
  return (_request, response, next) => {
    for (const [name, value] of steps) {
      if (value === undefined) response.removeHeader(name);
      else response.setHeader(name, value);
    }
    next();
  };
}

/**
 * The header fields helmet sets, as name and value, for answers written without a response object
 * (those of Node's HTTP parser, `client-errors.ts`): every answer carries them.
 */
export function securityHeaderFields(options: HelmetOptions): Array<[name: string, value: string]> {
  return recordHelmet(options).flatMap(([name, value]) => (value === undefined ? [] : [[name, value] as [string, string]]));
}

/** What helmet does to a response with these options: headers set (with their values) and removed, in order. */
function recordHelmet(options: HelmetOptions): Array<[name: string, value: string | undefined]> {
  const steps: Array<[name: string, value: string | undefined]> = [];
  const recorder = {
    setHeader: (name: string, value: string) => steps.push([name, String(value)]),
    removeHeader: (name: string) => steps.push([name, undefined]),
  };
  let failure: unknown;
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => (failure = error));
  if (failure) throw failure instanceof Error ? failure : new Error(String(failure));
  return steps;
}
