import { TOKEN_SCOPE } from '../tokens/access-tokens.service.js';
import { OAuthErrors } from './oauth-errors.js';
import type { TokenRequest } from './token-request.js';

/**
 * `scope` as league/oauth2-server under simple_oauth treats it (RFC 6749 §3.3): every token carries
 * the one scope `authenticated`, so asking for none or for that one is granted, and asking for any
 * other is refused, naming the first unknown one (docs/interface.md#errors-of-the-token-endpoint).
 */
export function checkRequestedScopes(request: TokenRequest): void {
  const unknown = request.scopes().find((scope) => scope !== TOKEN_SCOPE);
  if (unknown !== undefined) throw OAuthErrors.invalidScope(unknown);
}
