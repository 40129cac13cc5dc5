import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';
import { securityHeaders } from './security-headers.js';

/** The headers a middleware leaves on a response that starts with `X-Powered-By`. */
function headersAfter(middleware: (request: IncomingMessage, response: ServerResponse, next: () => void) => void) {
  const headers = new Map<string, string>([['x-powered-by', 'Express']]);
  const response = {
    setHeader: (name: string, value: string) => headers.set(name.toLowerCase(), value),
    removeHeader: (name: string) => headers.delete(name.toLowerCase()),
  } as unknown as ServerResponse;
  let nextCalled = false;
  middleware({} as IncomingMessage, response, () => (nextCalled = true));
  return { headers: Object.fromEntries(headers), nextCalled };
}

describe('securityHeaders', () => {
  it.each<[string, HelmetOptions]>([
    ['the defaults', {}],
    ['the service’s options', { contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } }],
  ])('sets exactly the headers helmet sets, with %s', (_label, options) => {
    const expected = headersAfter(helmet(options));

    const actual = headersAfter(securityHeaders(options));

    expect(actual).toEqual(expected);
    expect(actual.headers['x-powered-by']).toBeUndefined();
    expect(actual.headers['content-security-policy']).toContain("default-src 'self'");
  });

  it('refuses options helmet refuses, when the application starts', () => {
    expect(() => securityHeaders({ contentSecurityPolicy: { directives: { 'default-src': ['self'] } } })).toThrow(/self/);
  });
});
