import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import { Strategy } from 'passport-http-bearer';
import { bearerAuthorization } from './bearer-authorization.js';
import type { AuthenticatedUser } from '../authenticated-user.js';
import { isRefused, TOKEN_REFUSAL_DESCRIPTIONS } from '../tokens/token-refusal.js';
import { BEARER_REALM } from './bearer-challenge.js';
import { TokenStateService } from './token-state.service.js';
import { VerifiedTokenCache } from './verified-token-cache.js';

/** Verifies the JWT (remembered until it expires), then asks the database (briefly cached) whether its user and family still stand. */
@Injectable()
export class BearerStrategy extends PassportStrategy(Strategy, 'bearer') {
  constructor(
    private readonly verifiedTokens: VerifiedTokenCache,
    private readonly tokenState: TokenStateService,
  ) {
    super({ realm: BEARER_REALM });
  }

  // Only the Authorization header: passport-http-bearer would also take `access_token` from the body
  // or query string, where tokens end up in logs.
  override authenticate(request: Request, options?: object): void {
    super.authenticate({ headers: { authorization: bearerAuthorization(request.headers.authorization) } } as Request, options);
  }

  /** The user, or `false` with the description passport-http-bearer puts in its challenge (see bearer-challenge.ts). */
  async validate(token: string): Promise<AuthenticatedUser | [false, string]> {
    const claims = await this.verifiedTokens.verify(token);
    if (isRefused(claims)) return [false, TOKEN_REFUSAL_DESCRIPTIONS[claims.refused]];
    const state = await this.tokenState.resolve(claims);
    return isRefused(state) ? [false, TOKEN_REFUSAL_DESCRIPTIONS[state.refused]] : state;
  }
}
