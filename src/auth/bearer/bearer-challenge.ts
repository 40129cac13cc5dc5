import { TOKEN_REFUSAL_DESCRIPTIONS, type TokenRefusal } from '../tokens/token-refusal.js';

/** The protection space named in every bearer challenge of the service. */
export const BEARER_REALM = 'sensor-records';

/** Why a request's bearer authentication failed, as its log line says it. */
export type BearerFailure = TokenRefusal | 'no_token' | 'malformed_header' | 'no_permission';

const PERMISSION_DESCRIPTION = 'The user may not create sensor records';

/**
 * The RFC 6750 §3 challenge that goes beside a refusal's 403 (docs/interface.md#bearer-tokens-on-requests),
 * and the reason its log line names. `info` is what passport-http-bearer reported: its own challenge,
 * `Bearer realm="…", error="invalid_token", error_description="<the strategy's description>"`, or,
 * for a request without a token, the bare `Bearer realm="…"`; nothing for an Authorization header it
 * cannot split into a scheme and a token.
 */
export function bearerChallenge(info: unknown): { header: string; failure: BearerFailure } {
  if (typeof info !== 'string') {
    return {
      header: challenge('invalid_request', 'The Authorization header must be Bearer and one token'),
      failure: 'malformed_header',
    };
  }
  const description = /error_description="([^"]*)"/.exec(info)?.[1];
  const refusal = (Object.keys(TOKEN_REFUSAL_DESCRIPTIONS) as TokenRefusal[]).find(
    (reason) => TOKEN_REFUSAL_DESCRIPTIONS[reason] === description,
  );
  // RFC 6750 §3.1: a request with no authentication information gets no error code.
  if (refusal === undefined) return { header: `Bearer realm="${BEARER_REALM}"`, failure: 'no_token' };
  return { header: challenge('invalid_token', TOKEN_REFUSAL_DESCRIPTIONS[refusal]), failure: refusal };
}

/** A valid token whose user lacks the permission the route needs. */
export function insufficientPermissionChallenge(): { header: string; failure: BearerFailure } {
  return { header: challenge('insufficient_scope', PERMISSION_DESCRIPTION), failure: 'no_permission' };
}

function challenge(error: string, description: string): string {
  return `Bearer realm="${BEARER_REALM}", error="${error}", error_description="${description}"`;
}
