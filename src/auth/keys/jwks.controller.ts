import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { JWK } from 'jose';
import { Public } from '../public.decorator.js';
import { KEY_REFRESH_SECONDS, SigningKeysService } from './signing-keys.service.js';

/**
 * How long a cache may keep the key set: with an instance's own reading of the keys, under the minute
 * between `keys:rotate` and the first token the new key signs.
 */
const JWKS_MAX_AGE_SECONDS = 30;

/** The public signing keys as a JWK Set (RFC 7517), on the path Drupal's simple_oauth serves it (docs/interface.md#signing-keys). */
@Public()
@ApiTags('OAuth 2.0')
@Controller('oauth/jwks')
export class JwksController {
  constructor(private readonly keys: SigningKeysService) {}

  @Get()
  @Header('Cache-Control', `public, max-age=${JWKS_MAX_AGE_SECONDS}`)
  @ApiOperation({
    summary: 'The public keys that verify access tokens, as a JWK Set',
    description:
      'Every signing key not retired, the newest first: RSA keys with kid (the JWK thumbprint, as in the tokens’ header), ' +
      `alg RS256 and use sig. A rotated key is published a minute before it signs; caches may keep the set ${JWKS_MAX_AGE_SECONDS} s ` +
      `(each instance reads the keys every ${KEY_REFRESH_SECONDS} s).`,
  })
  @ApiOkResponse({
    description: 'The key set.',
    schema: {
      type: 'object',
      required: ['keys'],
      properties: {
        keys: {
          type: 'array',
          items: {
            type: 'object',
            required: ['kty', 'n', 'e', 'kid', 'alg', 'use'],
            properties: {
              kty: { type: 'string', enum: ['RSA'] },
              n: { type: 'string' },
              e: { type: 'string' },
              kid: { type: 'string' },
              alg: { type: 'string', enum: ['RS256'] },
              use: { type: 'string', enum: ['sig'] },
            },
          },
        },
      },
    },
  })
  keySet(): { keys: JWK[] } {
    return this.keys.keySet();
  }
}
