import type { ClientsService } from '../clients/clients.service.js';
import type { OAuthClientEntity } from '../clients/oauth-client.entity.js';
import { OAuthErrors } from './oauth-errors.js';
import type { TokenRequest } from './token-request.js';

/**
 * The client a token request authenticates as: each reading of its id, then each reading of its
 * secret, the value as sent first (docs/interface.md#the-token-endpoint). Otherwise 401 invalid_client.
 */
export async function authenticateClient(clients: ClientsService, request: TokenRequest): Promise<OAuthClientEntity> {
  const { clientIds, clientSecrets } = request.clientCredentials();
  for (const clientId of clientIds) {
    for (const clientSecret of clientSecrets) {
      const client = await clients.authenticate(clientId, clientSecret);
      if (client) return client;
    }
  }
  throw OAuthErrors.invalidClient(request.usedBasicAuth);
}
