import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { negotiateFormat } from './format-negotiation.js';
import { readFormatParameter } from './format-parameter.js';
import type { ResponseFormat } from './response-format.js';

/**
 * The record format the request asks for (`_format`, then Accept, else hal_json); an unknown `_format`
 * is refused (406). As the route's first parameter it is read before the submission's body is looked
 * at (docs/interface.md#order-of-checks), without an interceptor on the ingestion path.
 */
export const NegotiatedFormat = createParamDecorator((_data: unknown, context: ExecutionContext): ResponseFormat => {
  const request = context.switchToHttp().getRequest<Request>();
  return negotiateFormat(readFormatParameter(request.originalUrl), request.headers.accept);
});
