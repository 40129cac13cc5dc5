import { Controller, Header, HttpCode, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import { ApiException } from '../../common/errors/api-exception.js';
import type { Answer } from '../../common/http/answer.js';
import { Public } from '../public.decorator.js';
import { type GrantOutcome, MetricsService } from '../../metrics/metrics.service.js';
import { isGrantType } from './grant-types.js';
import { TokenEndpointDocs } from './token.api-docs.js';
import { TokenGrantsService } from './token-grants.service.js';
import { TokenRequest } from './token-request.js';
import { tokenAnswer } from './token-response.js';

export const TOKEN_PATH = 'api-sensor/oauth/token';

@Public()
@Controller(TOKEN_PATH)
export class TokenController {
  constructor(
    private readonly grants: TokenGrantsService,
    private readonly metrics: MetricsService,
  ) {}

  @Post()
  @TokenEndpointDocs()
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @Header('Pragma', 'no-cache')
  async token(@Req() request: Request): Promise<Answer<Buffer>> {
    const grantType = grantTypeLabel(request);
    try {
      const answer = await this.grants.grant(TokenRequest.from(request));
      this.metrics.tokenGrant(grantType, 'success');
      return tokenAnswer(answer);
    } catch (error) {
      this.metrics.tokenGrant(grantType, grantOutcome(error));
      throw error;
    }
  }
}

/** Bounded label values: anything a caller invents is `other`. */
function grantTypeLabel(request: Request): string {
  const grantType = (request.body as Record<string, unknown> | undefined)?.grant_type;
  return isGrantType(grantType) ? grantType : 'other';
}

function grantOutcome(error: unknown): GrantOutcome {
  if (!(error instanceof ApiException)) return 'error';
  if (error.getStatus() === 429) return 'throttled';
  if (error.getStatus() === 503) return 'busy';
  const code = (error.getResponse() as { error?: unknown }).error;
  return code === 'invalid_request' || code === 'invalid_client' || code === 'invalid_grant' || code === 'unsupported_grant_type'
    ? code
    : 'error';
}
