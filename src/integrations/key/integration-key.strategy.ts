import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import { Strategy } from 'passport-http-bearer';
import { bearerAuthorization } from '../../auth/bearer/bearer-authorization.js';
import type { IntegrationCaller } from './integration-caller.js';
import { IntegrationKeyRefusal } from './integration-key-refusal.js';
import { IntegrationKeyStateService } from './integration-key-state.service.js';

/** The Passport strategy of the integration routes; the global one, `bearer`, takes access tokens. */
export const INTEGRATION_KEY_STRATEGY = 'integration-key';

/**
 * Reads the integration key from `Authorization: Bearer <api_key>` (the fixed header a network server
 * sends) and resolves it to its integration and user. Each way of not being let in is thrown as the
 * refusal it is, for the guard to count and answer.
 */
@Injectable()
export class IntegrationKeyStrategy extends PassportStrategy(Strategy, INTEGRATION_KEY_STRATEGY) {
  constructor(private readonly keys: IntegrationKeyStateService) {
    super();
  }

  // Only the Authorization header: passport-http-bearer would also take `access_token` from the body
  // or query string, where keys end up in logs.
  override authenticate(request: Request, options?: object): void {
    super.authenticate({ headers: { authorization: bearerAuthorization(request.headers.authorization) } } as Request, options);
  }

  async validate(key: string): Promise<IntegrationCaller> {
    const state = await this.keys.resolve(key);
    if (state.kind === 'unknown') throw IntegrationKeyRefusal.unknown();
    if (state.kind === 'revoked') throw IntegrationKeyRefusal.revoked();
    if (!state.userActive) throw IntegrationKeyRefusal.userBlocked();
    if (!state.mayCreateSensorRecords) throw IntegrationKeyRefusal.noPermission();
    return state.caller;
  }
}
