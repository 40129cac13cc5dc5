import { ApiException } from '../../common/errors/api-exception.js';
import { NETWORK_NAMES, type IntegrationNetwork, UPLINK_PATHS } from '../integration-network.js';

/** RFC 6750: a 401 names the scheme the route takes. */
const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="integrations"' };

/**
 * A request the integration guard refuses (docs/interface.md#integration-keys). A missing, unknown
 * or revoked key is a failed authentication and counts toward its address's limit; a good key whose
 * user may not post here is not.
 */
export class IntegrationKeyRefusal extends ApiException {
  private constructor(
    status: 401 | 403,
    message: string,
    readonly countsAsFailure: boolean,
  ) {
    super(status, message, status === 401 ? CHALLENGE : {});
  }

  static missing = () => new IntegrationKeyRefusal(401, INTEGRATION_KEY_MESSAGES.missing, true);
  static unknown = () => new IntegrationKeyRefusal(401, INTEGRATION_KEY_MESSAGES.unknown, true);
  static revoked = () => new IntegrationKeyRefusal(401, INTEGRATION_KEY_MESSAGES.revoked, true);
  static userBlocked = () => new IntegrationKeyRefusal(403, INTEGRATION_KEY_MESSAGES.userBlocked, false);
  static noPermission = () => new IntegrationKeyRefusal(403, INTEGRATION_KEY_MESSAGES.noPermission, false);
  static otherNetwork = (network: IntegrationNetwork) =>
    new IntegrationKeyRefusal(403, INTEGRATION_KEY_MESSAGES.otherNetwork(network), false);
}

/** The texts of the integration routes' refusals, used by the guard and by their OpenAPI description alike. */
export const INTEGRATION_KEY_MESSAGES = {
  missing: 'An integration key is required: send it as "Authorization: Bearer <api_key>".',
  unknown: 'The integration key is not valid.',
  revoked: 'The integration key has been revoked.',
  userBlocked: "The integration's user is blocked.",
  noPermission: "The integration's user may not create sensor records.",
  otherNetwork: (network: IntegrationNetwork) =>
    `This integration key is for ${NETWORK_NAMES[network]}: configure it with /${UPLINK_PATHS[network]}.`,
  tooMany: 'Too many requests with a missing or invalid integration key from your IP address. Try again later.',
} as const;

/** 429 once the address has failed too often (the same per-address limit as failed password grants). */
export function tooManyRefusedKeys(retryAfterSeconds: number): ApiException {
  return new ApiException(429, INTEGRATION_KEY_MESSAGES.tooMany, { 'Retry-After': String(retryAfterSeconds) });
}
