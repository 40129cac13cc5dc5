/** Symfony's text for a request no route matches (Drupal's 404), given by the exception filter and by routes that refuse a path. */
export function noRouteMessage(method: string, path: string): string {
  return `No route found for "${method} ${path}"`;
}

/** The 413 of a body over its route's limit (`64 KiB`, `2 MiB`). */
export const bodyTooLargeMessage = (limit: string) => `Request body is larger than the ${limit} limit.`;

/** The body limit of every route but the batch route: as body-parser takes it, and as answers show it. */
export const DEFAULT_BODY_LIMIT = { bytes: '64kb', shown: '64 KiB' } as const;

/** The 413 of a body over the limit most routes take. */
export const BODY_TOO_LARGE_MESSAGE = bodyTooLargeMessage(DEFAULT_BODY_LIMIT.shown);
