import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import { Strategy } from 'passport-http-bearer';
import type { AuthenticatedUser } from '../authenticated-user.js';
import { TokenStateService } from './token-state.service.js';
import { VerifiedTokenCache } from './verified-token-cache.js';

/** Verifies the JWT (remembered until it expires), then asks the database (briefly cached) whether its user and family still stand. */
@Injectable()
export class BearerStrategy extends PassportStrategy(Strategy, 'bearer') {
  constructor(
    private readonly verifiedTokens: VerifiedTokenCache,
    private readonly tokenState: TokenStateService,
  ) {
    super();
  }

  // Only the Authorization header: passport-http-bearer would also take `access_token` from the body
  // or query string, where tokens end up in logs.
  override authenticate(request: Request, options?: object): void {
    super.authenticate({ headers: { authorization: request.headers.authorization } } as Request, options);
  }

  async validate(token: string): Promise<AuthenticatedUser | false> {
    const claims = await this.verifiedTokens.verify(token);
    if (!claims) return false;
    return (await this.tokenState.resolve(claims)) ?? false;
  }
}
