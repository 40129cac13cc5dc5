import { ApiException } from '../../common/errors/api-exception.js';
import { undecodableBodyMessage } from '../../common/http/content-encoding.js';

/**
 * RFC 6749 §5.2 error answers with league/oauth2-server's texts; `message` repeats
 * `error_description` as league's (and Drupal simple_oauth's) answers do.
 */
function oauthError(status: number, error: string, description: string, hint?: string, headers?: Record<string, string>) {
  const body = { error, error_description: description, ...(hint === undefined ? {} : { hint }), message: description };
  return new ApiException(status, body, headers);
}

export const OAuthErrors = {
  invalidRequest: (parameter: string, hint = `Check the \`${parameter}\` parameter`) =>
    oauthError(
      400,
      'invalid_request',
      'The request is missing a required parameter, includes an invalid parameter value, includes a parameter more than once, or is otherwise malformed.',
      hint,
    ),
  /** A body its Content-Encoding does not decode: league has no text of its own for it, so it is said plainly. */
  undecodableBody: (encoding: string) => oauthError(400, 'invalid_request', undecodableBodyMessage(encoding)),
  invalidClient: (usedBasicAuth: boolean) =>
    oauthError(
      401,
      'invalid_client',
      'Client authentication failed',
      undefined,
      usedBasicAuth ? { 'WWW-Authenticate': 'Basic realm="OAuth"' } : {},
    ),
  /** The scope is named as league writes it, through PHP's htmlspecialchars. */
  invalidScope: (scope: string) =>
    oauthError(
      400,
      'invalid_scope',
      'The requested scope is invalid, unknown, or malformed',
      `Check the \`${htmlSpecialChars(scope)}\` scope`,
    ),
  invalidCredentials: () => oauthError(400, 'invalid_grant', 'The user credentials were incorrect.'),
  invalidRefreshToken: (hint: string) => oauthError(400, 'invalid_grant', 'The refresh token is invalid.', hint),
  unsupportedGrantType: () =>
    oauthError(
      400,
      'unsupported_grant_type',
      'The authorization grant type is not supported by the authorization server.',
      'Check that all required parameters have been provided',
    ),
  tooManyAttempts: (description: string, retryAfterSeconds: number) =>
    oauthError(429, 'too_many_requests', description, undefined, { 'Retry-After': String(retryAfterSeconds) }),
  /** Every place for a password check is taken and the waiting line is full. */
  serverBusy: () =>
    oauthError(503, 'temporarily_unavailable', 'The server is busy checking other passwords. Try again shortly.', undefined, {
      'Retry-After': '1',
    }),
};

/** PHP's htmlspecialchars with ENT_QUOTES and without double encoding: an entity already written stays as it is. */
function htmlSpecialChars(text: string): string {
  const entities: Record<string, string> = { '&': '&amp;', '"': '&quot;', "'": '&#039;', '<': '&lt;', '>': '&gt;' };
  return text.replace(/&(?!(?:[A-Za-z][A-Za-z0-9]*|#\d+|#[xX][0-9A-Fa-f]+);)|["'<>]/g, (character) => entities[character]!);
}
