import { applyDecorators, type CanActivate, SetMetadata, type Type, UseGuards } from '@nestjs/common';

export const AUTHENTICATED_ELSEWHERE = Symbol('AUTHENTICATED_ELSEWHERE');

/**
 * A route whose callers present credentials of another kind (a network server's integration key)
 * to a guard of its own: the global bearer guard leaves the route to that guard, and access tokens
 * mean nothing there.
 */
export function AuthenticatedBy(guard: Type<CanActivate>) {
  return applyDecorators(SetMetadata(AUTHENTICATED_ELSEWHERE, true), UseGuards(guard));
}
