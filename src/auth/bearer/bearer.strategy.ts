import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import { Strategy } from 'passport-http-bearer';
import type { AuthenticatedUser } from '../authenticated-user.js';
import { AccessTokensService } from '../tokens/access-tokens.service.js';
import { TokenStateService } from './token-state.service.js';

/** Verifies the JWT, then asks the database (briefly cached) whether its user and family still stand. */
@Injectable()
export class BearerStrategy extends PassportStrategy(Strategy, 'bearer') {
  constructor(
    private readonly accessTokens: AccessTokensService,
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
    const claims = await this.accessTokens.verify(token);
    if (!claims) return false;
    return (await this.tokenState.resolve(claims)) ?? false;
  }
}
