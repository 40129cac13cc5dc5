import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor, UseInterceptors } from '@nestjs/common';
import type { Request } from 'express';
import type { Observable } from 'rxjs';
import { assertOnlyFormat } from './format-negotiation.js';
import { readFormatParameter } from './format-parameter.js';

/**
 * For a route whose answer is plain JSON whatever `Accept` says: a `_format` other than `json` is refused
 * (406) after the bearer guard and before the body is looked at, as the record routes refuse an unknown one.
 */
@Injectable()
class JsonOnlyInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    assertOnlyFormat(readFormatParameter(context.switchToHttp().getRequest<Request>().originalUrl), 'json');
    return next.handle();
  }
}

/** The route answers JSON only (docs/interface.md#response-formats). */
export const AnswersJsonOnly = () => UseInterceptors(JsonOnlyInterceptor);
