import { applyDecorators, SetMetadata, UseGuards } from '@nestjs/common';
import { AUTHENTICATED_OPTIONS, type AuthenticatedOptions } from './bearer/authenticated-options.js';
import { BearerAuthGuard } from './bearer/bearer-auth.guard.js';

/** Requires a valid bearer access token (and, with `requireIngest`, the sensor-record permission). */
export function Authenticated(options: AuthenticatedOptions = {}) {
  return applyDecorators(SetMetadata(AUTHENTICATED_OPTIONS, options), UseGuards(BearerAuthGuard));
}
