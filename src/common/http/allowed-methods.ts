import { METHODS } from 'node:http';

interface RouteLayer {
  route?: { methods: Record<string, boolean> };
  match(path: string): boolean;
}

/**
 * The methods Express has endpoints for at `path`, for a 405's `Allow` header; HEAD wherever GET is,
 * as Express answers it from the GET route. Middleware mounted for every route (`forRoutes('*')`)
 * shows up as a route accepting every method; it is not an endpoint.
 */
export function allowedMethods(expressApp: { router?: { stack: RouteLayer[] } }, path: string): string[] {
  const methods = new Set<string>();
  for (const layer of expressApp.router?.stack ?? []) {
    if (!layer.route || !layer.match(path)) continue;
    const routeMethods = Object.keys(layer.route.methods).filter((method) => layer.route?.methods[method] && method !== '_all');
    if (layer.route.methods._all || routeMethods.length >= METHODS.length) continue;
    for (const method of routeMethods) methods.add(method.toUpperCase());
  }
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}
