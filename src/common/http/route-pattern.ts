/**
 * The route pattern that answered a request (`/node/:nid`), or undefined when no endpoint matched.
 * Middleware mounted for every route leaves its own wildcard pattern behind; that is not an endpoint.
 */
export function routePattern(request: unknown): string | undefined {
  const path = (request as { route?: { path?: unknown } }).route?.path;
  return typeof path === 'string' && !path.includes('*') ? path : undefined;
}
