import { SetMetadata } from '@nestjs/common';
import { AUTHENTICATED_OPTIONS, type AuthenticatedOptions } from './bearer/authenticated-options.js';

/**
 * How the global bearer guard treats a route: with `requireIngest` the user also needs the
 * sensor-record permission; `deniedMessage` is the route's 403 text. (A route without it still
 * requires a valid token unless it is `@Public()`.)
 */
export function Authenticated(options: AuthenticatedOptions = {}) {
  return SetMetadata(AUTHENTICATED_OPTIONS, options);
}
