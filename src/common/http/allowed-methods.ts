interface RouteLayer {
  route?: { methods: Record<string, boolean> };
  match(path: string): boolean;
}

/** The methods Express has routes for at `path`, for a 405's `Allow` header. */
export function allowedMethods(expressApp: { router?: { stack: RouteLayer[] } }, path: string): string[] {
  const methods = new Set<string>();
  for (const layer of expressApp.router?.stack ?? []) {
    if (!layer.route || !layer.match(path)) continue;
    for (const [method, enabled] of Object.entries(layer.route.methods)) {
      if (enabled && method !== '_all') methods.add(method.toUpperCase());
    }
  }
  return [...methods].sort();
}
