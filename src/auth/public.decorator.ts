import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = Symbol('IS_PUBLIC');

/**
 * Opens a route to callers without a bearer token. The bearer guard is global, so every route
 * needs a token unless it says otherwise here.
 */
export const Public = () => SetMetadata(IS_PUBLIC, true);
