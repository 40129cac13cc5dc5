import { type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { ApiException } from '../../common/errors/api-exception.js';
import { AUTHENTICATED_ELSEWHERE } from '../authenticated-by.decorator.js';
import { IS_PUBLIC } from '../public.decorator.js';
import type { AuthenticatedUser } from '../authenticated-user.js';
import { AUTHENTICATED_OPTIONS, type AuthenticatedOptions, DEFAULT_DENIED_MESSAGE } from './authenticated-options.js';

/**
 * The global guard: every route needs a valid bearer token unless it is `@Public()` or authenticates
 * its callers with a guard of its own (`@AuthenticatedBy`). Every way of not being allowed (no token,
 * a bad one, a blocked user, no permission) is one 403.
 */
@Injectable()
export class BearerAuthGuard extends AuthGuard('bearer') {
  constructor(private readonly reflector: Reflector) {
    super();
  }

  override canActivate(context: ExecutionContext) {
    const targets = [context.getHandler(), context.getClass()];
    const isPublic = this.reflector.getAllAndOverride<boolean | undefined>(IS_PUBLIC, targets);
    const elsewhere = this.reflector.getAllAndOverride<boolean | undefined>(AUTHENTICATED_ELSEWHERE, targets);
    return isPublic || elsewhere ? true : super.canActivate(context);
  }

  override handleRequest<TUser = AuthenticatedUser>(
    error: unknown,
    user: AuthenticatedUser | false | undefined,
    _info: unknown,
    context: ExecutionContext,
  ): TUser {
    // A failure to reach the database is not the caller's fault: let the filter answer 503.
    if (error) throw error;
    const options =
      this.reflector.getAllAndOverride<AuthenticatedOptions | undefined>(AUTHENTICATED_OPTIONS, [
        context.getHandler(),
        context.getClass(),
      ]) ?? {};
    if (!user || (options.requireIngest && !user.mayCreateSensorRecords)) {
      throw new ApiException(403, options.deniedMessage ?? DEFAULT_DENIED_MESSAGE);
    }
    return user as TUser;
  }
}
