import { Controller, Get, Header } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { randomBytes } from 'node:crypto';
import { Public } from '../public.decorator.js';

/**
 * Drupal's CSRF token route. Bearer-authenticated requests never need the token, so it is random
 * and not checked; the route exists so that clients written for Drupal keep working.
 */
@ApiTags('OAuth 2.0')
@Public()
@Controller('session/token')
export class SessionTokenController {
  @Get()
  @ApiOperation({ summary: 'A CSRF token, for clients written against Drupal (not needed with bearer tokens)' })
  @ApiProduces('text/plain')
  @Header('Content-Type', 'text/plain; charset=UTF-8')
  @Header('Cache-Control', 'no-store')
  token(): string {
    return randomBytes(32).toString('base64url');
  }
}
