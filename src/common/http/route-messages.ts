/** Symfony's text for a request no route matches (Drupal's 404), given by the exception filter and by routes that refuse a path. */
export function noRouteMessage(method: string, path: string): string {
  return `No route found for "${method} ${path}"`;
}

/** The 413 of every body over its route's limit. */
export const BODY_TOO_LARGE_MESSAGE = 'Request body is larger than the 64 KiB limit.';
