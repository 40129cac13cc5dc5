import { Controller, Get, Header } from '@nestjs/common';
import { randomBytes } from 'node:crypto';

/**
 * Drupal's CSRF token route. Bearer-authenticated requests never need the token, so it is random
 * and not checked; the route exists so that clients written for Drupal keep working.
 */
@Controller('session/token')
export class SessionTokenController {
  @Get()
  @Header('Content-Type', 'text/plain; charset=UTF-8')
  @Header('Cache-Control', 'no-store')
  token(): string {
    return randomBytes(32).toString('base64url');
  }
}
