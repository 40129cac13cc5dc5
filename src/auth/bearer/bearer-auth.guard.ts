import { type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { Response } from 'express';
import { ApiException } from '../../common/errors/api-exception.js';
import { addLogContext } from '../../logging/log-context.js';
import { AUTHENTICATED_ELSEWHERE } from '../authenticated-by.decorator.js';
import { IS_PUBLIC } from '../public.decorator.js';
import type { AuthenticatedUser } from '../authenticated-user.js';
import { AUTHENTICATED_OPTIONS, type AuthenticatedOptions, DEFAULT_DENIED_MESSAGE } from './authenticated-options.js';
import { bearerChallenge, insufficientPermissionChallenge } from './bearer-challenge.js';

/**
 * The global guard: every route needs a valid bearer token unless it is `@Public()` or authenticates
 * its callers with a guard of its own (`@AuthenticatedBy`). Every way of not being allowed (no token,
 * a bad one, a blocked user, no permission) is one 403, the route's; why is said beside it, in an
 * RFC 6750 challenge and in the request's log line.
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
    info: unknown,
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
      const { header, failure } = user ? insufficientPermissionChallenge() : bearerChallenge(info);
      addLogContext(context.switchToHttp().getResponse<Response>(), { token_refused: failure });
      throw new ApiException(403, options.deniedMessage ?? DEFAULT_DENIED_MESSAGE, { 'WWW-Authenticate': header });
    }
    return user as TUser;
  }
}
