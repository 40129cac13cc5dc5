import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { ApiException } from '../../common/errors/api-exception.js';
import { GRANT_TYPES } from './grant-types.js';
import { LOGIN_FLOOD_MESSAGES } from './login-flood.service.js';
import { OAuthErrors } from './oauth-errors.js';

// The error examples are the answers the endpoint builds (OAuthErrors), not texts restated here.

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

const errorContent = (examples: Record<string, ApiException>) => ({
  'application/json': {
    schema: OAUTH_ERROR_SCHEMA,
    examples: Object.fromEntries(Object.entries(examples).map(([name, answer]) => [name, { value: answer.getResponse() }])),
  },
});

export function TokenEndpointDocs() {
  return applyDecorators(
    ApiTags('OAuth 2.0'),
    ApiOperation({
      summary: 'Obtain or refresh tokens',
      description:
        'Password grant (client and user credentials) or refresh_token grant. Client credentials may be sent in the ' +
        'form or with HTTP Basic (form-encoded first, as RFC 6749 §2.3.1 has clients do, or as they are). `scope` may be left ' +
        'out or be `authenticated`, the one scope every token carries; any other is refused. Each refresh returns a new pair and revokes the refresh token it used; presenting a ' +
        'used refresh token again revokes every token descended from the same password grant.',
    }),
    ApiConsumes('application/x-www-form-urlencoded'),
    ApiBody({
      schema: {
        type: 'object',
        required: ['grant_type'],
        properties: {
          grant_type: { type: 'string', enum: [...GRANT_TYPES] },
          client_id: { type: 'string' },
          client_secret: { type: 'string' },
          username: { type: 'string', description: 'password grant' },
          password: { type: 'string', description: 'password grant' },
          refresh_token: { type: 'string', description: 'refresh_token grant' },
          scope: { type: 'string', description: 'Optional; `authenticated` (the scope every token carries) or nothing.' },
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
        'wrong credentials, a bad refresh token, a scope other than authenticated, or an unknown grant type.',
      content: errorContent({
        invalid_request: OAuthErrors.invalidRequest('username'),
        invalid_grant: OAuthErrors.invalidCredentials(),
        invalid_refresh_token: OAuthErrors.invalidRefreshToken('Token has been revoked'),
        invalid_scope: OAuthErrors.invalidScope('sensors:write'),
        unsupported_grant_type: OAuthErrors.unsupportedGrantType(),
      }),
    }),
    ApiResponse({
      status: 401,
      description: 'Client authentication failed (with WWW-Authenticate when HTTP Basic was used).',
      content: errorContent({ invalid_client: OAuthErrors.invalidClient(false) }),
    }),
    ApiResponse({
      status: 429,
      description: 'Too many failed password grants for this user name or from this address; see Retry-After.',
      headers: { 'Retry-After': { description: 'Seconds until password grants are accepted again.', schema: { type: 'integer' } } },
      content: errorContent({
        too_many_requests: OAuthErrors.tooManyAttempts(LOGIN_FLOOD_MESSAGES.username, 60),
      }),
    }),
    ApiResponse({
      status: 503,
      description:
        'Every place for a password check and its waiting line are taken (PASSWORD_CHECKS_IN_FLIGHT, PASSWORD_CHECK_QUEUE), ' +
        'or checks still running for this user name or address fill what its failed-login limit leaves; see Retry-After.',
      headers: { 'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer' } } },
      content: errorContent({
        temporarily_unavailable: OAuthErrors.serverBusy(),
      }),
    }),
  );
}
