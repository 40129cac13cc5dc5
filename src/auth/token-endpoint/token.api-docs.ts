import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';

const oauthError = (error: string, description: string, hint?: string) => ({
  error,
  error_description: description,
  ...(hint ? { hint } : {}),
  message: description,
});

const OAUTH_ERROR_SCHEMA = {
  type: 'object',
  required: ['error', 'error_description', 'message'],
  properties: {
    error: { type: 'string' },
    error_description: { type: 'string' },
    hint: { type: 'string' },
    message: { type: 'string', description: 'The same text as error_description.' },
  },
};

const errorContent = (examples: Record<string, ReturnType<typeof oauthError>>) => ({
  'application/json': {
    schema: OAUTH_ERROR_SCHEMA,
    examples: Object.fromEntries(Object.entries(examples).map(([name, value]) => [name, { value }])),
  },
});

export function TokenEndpointDocs() {
  return applyDecorators(
    ApiTags('OAuth 2.0'),
    ApiOperation({
      summary: 'Obtain or refresh tokens',
      description:
        'Password grant (client and user credentials) or refresh_token grant. Client credentials may be sent in the ' +
        'form or with HTTP Basic. Each refresh returns a new pair and revokes the refresh token it used; presenting a ' +
        'used refresh token again revokes every token descended from the same password grant.',
    }),
    ApiConsumes('application/x-www-form-urlencoded'),
    ApiBody({
      schema: {
        type: 'object',
        required: ['grant_type'],
        properties: {
          grant_type: { type: 'string', enum: ['password', 'refresh_token'] },
          client_id: { type: 'string' },
          client_secret: { type: 'string' },
          username: { type: 'string', description: 'password grant' },
          password: { type: 'string', description: 'password grant' },
          refresh_token: { type: 'string', description: 'refresh_token grant' },
        },
      },
      examples: {
        password: {
          summary: 'Password grant',
          value: {
            grant_type: 'password',
            client_id: '5efa0119-…',
            client_secret: '11gI1DdV…',
            username: 'gateway-01',
            password: 'a long passphrase',
          },
        },
        refresh: {
          summary: 'Refresh grant',
          value: { grant_type: 'refresh_token', client_id: '5efa0119-…', client_secret: '11gI1DdV…', refresh_token: 'Qm9…' },
        },
      },
    }),
    ApiResponse({
      status: 200,
      description: 'A token pair. Sent with Cache-Control: no-store.',
      content: {
        'application/json': {
          schema: {
            type: 'object',
            required: ['token_type', 'expires_in', 'access_token', 'refresh_token'],
            properties: {
              token_type: { type: 'string', enum: ['Bearer'] },
              expires_in: { type: 'integer', description: 'Access token lifetime in seconds (ACCESS_TOKEN_TTL).' },
              access_token: { type: 'string', description: 'RS256 JWT.' },
              refresh_token: { type: 'string', description: 'Opaque; usable once.' },
            },
          },
          example: { token_type: 'Bearer', expires_in: 300, access_token: 'eyJhbGciOiJSUzI1NiIs…', refresh_token: 'Qm9…' },
        },
      },
    }),
    ApiResponse({
      status: 400,
      description:
        'A missing parameter, a user name over 60 characters or with control characters, a body that is not form-encoded, ' +
        'wrong credentials, a bad refresh token, or an unknown grant type.',
      content: errorContent({
        invalid_request: oauthError(
          'invalid_request',
          'The request is missing a required parameter, includes an invalid parameter value, includes a parameter more than once, or is otherwise malformed.',
          'Check the `username` parameter',
        ),
        invalid_grant: oauthError('invalid_grant', 'The user credentials were incorrect.'),
        invalid_refresh_token: oauthError('invalid_grant', 'The refresh token is invalid.', 'Token has been revoked'),
        unsupported_grant_type: oauthError(
          'unsupported_grant_type',
          'The authorization grant type is not supported by the authorization server.',
          'Check that all required parameters have been provided',
        ),
      }),
    }),
    ApiResponse({
      status: 401,
      description: 'Client authentication failed (with WWW-Authenticate when HTTP Basic was used).',
      content: errorContent({ invalid_client: oauthError('invalid_client', 'Client authentication failed') }),
    }),
    ApiResponse({
      status: 429,
      description: 'Too many failed password grants for this user name or from this address; see Retry-After.',
      headers: { 'Retry-After': { description: 'Seconds until password grants are accepted again.', schema: { type: 'integer' } } },
      content: errorContent({
        too_many_requests: oauthError(
          'too_many_requests',
          'Too many failed login attempts for this account. It is temporarily blocked. Try again later.',
        ),
      }),
    }),
    ApiResponse({
      status: 503,
      description:
        'Every place for a password check and its waiting line are taken (PASSWORD_CHECKS_IN_FLIGHT, PASSWORD_CHECK_QUEUE); ' +
        'see Retry-After.',
      headers: { 'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer' } } },
      content: errorContent({
        temporarily_unavailable: oauthError('temporarily_unavailable', 'The server is busy checking other passwords. Try again shortly.'),
      }),
    }),
  );
}
