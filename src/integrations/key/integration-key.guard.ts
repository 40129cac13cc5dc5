import { type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { Request } from 'express';
import { LoginFloodService } from '../../auth/token-endpoint/login-flood.service.js';
import type { IntegrationNetwork } from '../integration-network.js';
import type { IntegrationCaller } from './integration-caller.js';
import { IntegrationKeyRefusal, tooManyRefusedKeys } from './integration-key-refusal.js';
import { INTEGRATION_KEY_STRATEGY } from './integration-key.strategy.js';

export const INTEGRATION_NETWORK = Symbol('INTEGRATION_NETWORK');

/**
 * The guard of the integration routes: a valid key of the route's network server, whose user is
 * active and may create records. A missing, unknown or revoked key counts toward its address's limit
 * of failed authentications, shared with failed password grants; over it, the answer is 429.
 */
@Injectable()
export class IntegrationKeyGuard extends AuthGuard(INTEGRATION_KEY_STRATEGY) {
  constructor(
    private readonly reflector: Reflector,
    private readonly flood: LoginFloodService,
  ) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    try {
      return (await super.canActivate(context)) as boolean;
    } catch (error) {
      if (error instanceof IntegrationKeyRefusal && error.countsAsFailure) {
        const request = context.switchToHttp().getRequest<Request>();
        // As wide as the flood table's column (see TokenRequest).
        const address = (request.ip ?? request.socket.remoteAddress ?? 'unknown').slice(0, 64);
        const retryAfter = await this.flood.countRefusedKey(address);
        if (retryAfter !== null) throw tooManyRefusedKeys(retryAfter);
      }
      throw error;
    }
  }

  override handleRequest<TUser = IntegrationCaller>(
    error: unknown,
    caller: IntegrationCaller | false | undefined,
    _info: unknown,
    context: ExecutionContext,
  ): TUser {
    // A refusal the strategy found, or a failure to reach the database (answered 503 by the filter).
    if (error) throw error;
    if (!caller) throw IntegrationKeyRefusal.missing();
    const network = this.reflector.get<IntegrationNetwork>(INTEGRATION_NETWORK, context.getHandler());
    if (caller.network !== network) throw IntegrationKeyRefusal.otherNetwork(caller.network);
    return caller as TUser;
  }
}
