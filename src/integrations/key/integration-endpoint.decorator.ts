import { applyDecorators, createParamDecorator, type ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Request } from 'express';
import { AuthenticatedBy } from '../../auth/authenticated-by.decorator.js';
import type { IntegrationNetwork } from '../integration-network.js';
import type { IntegrationCaller } from './integration-caller.js';
import { INTEGRATION_NETWORK, IntegrationKeyGuard } from './integration-key.guard.js';

/** A route a network server posts to with an integration key of its kind (never an access token). */
export function IntegrationEndpoint(network: IntegrationNetwork) {
  return applyDecorators(SetMetadata(INTEGRATION_NETWORK, network), AuthenticatedBy(IntegrationKeyGuard));
}

/** The `IntegrationCaller` the integration guard put on the request. */
export const CurrentIntegration = createParamDecorator(
  (_data: unknown, context: ExecutionContext): IntegrationCaller =>
    context.switchToHttp().getRequest<Request & { user: IntegrationCaller }>().user,
);
