/**
 * Why a bearer token is refused. The answer stays the route's one 403 (the interface); the reason goes
 * beside it in the RFC 6750 §3 challenge and in the request's log line
 * (docs/interface.md#bearer-tokens-on-requests).
 */
export type TokenRefusal = 'expired' | 'revoked' | 'user_blocked' | 'invalid';

export interface Refused {
  refused: TokenRefusal;
}

export function isRefused(value: object): value is Refused {
  return 'refused' in value;
}

/** The `error_description` of each reason: plain ASCII without quotes or backslashes, as RFC 6750 §3 allows. */
export const TOKEN_REFUSAL_DESCRIPTIONS: Readonly<Record<TokenRefusal, string>> = Object.freeze({
  expired: 'The access token expired',
  revoked: 'The access token was revoked',
  user_blocked: 'The user of the access token is blocked',
  invalid: 'The access token is not valid',
});
