import { Controller, Header, HttpCode, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import { TokenGrantsService } from './token-grants.service.js';
import { TokenRequest } from './token-request.js';
import type { TokenResponse } from './token-response.js';

export const TOKEN_PATH = 'api-sensor/oauth/token';

@Controller(TOKEN_PATH)
export class TokenController {
  constructor(private readonly grants: TokenGrantsService) {}

  @Post()
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @Header('Pragma', 'no-cache')
  token(@Req() request: Request): Promise<TokenResponse> {
    return this.grants.grant(TokenRequest.from(request));
  }
}
