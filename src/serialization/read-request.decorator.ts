import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { QueryParametersPipe } from '../common/query/query-parameters.pipe.js';
import { negotiateFormatAmong } from './format-negotiation.js';
import { readFormatParameter } from './format-parameter.js';

/** What a list route reads from its request: the negotiated format and its validated query parameters. */
export interface ReadRequest<Q, F extends string> {
  format: F;
  query: Q;
}

interface FormatChoice {
  supported: readonly string[];
  fallback: string;
}

const negotiated = createParamDecorator((choice: FormatChoice, context: ExecutionContext) => {
  const request = context.switchToHttp().getRequest<Request>();
  // The format first (406), as on the record routes; the other parameters only then (400).
  const format = negotiateFormatAmong(readFormatParameter(request.originalUrl), request.headers.accept, choice.supported, choice.fallback);
  return { format, query: request.query as Record<string, unknown> };
});

/**
 * The format among `supported` (`_format`, then Accept, else `fallback`; docs/interface.md#response-formats)
 * and the query parameters validated against `dto` (docs/interface.md#query-parameters).
 */
export function ReadRequestOf<Q extends object>(dto: new () => Q, supported: readonly string[], fallback: string) {
  const pipe = new QueryParametersPipe(dto);
  return negotiated(
    { supported, fallback },
    { transform: ({ format, query }: { format: string; query: Record<string, unknown> }) => ({ format, query: pipe.transform(query) }) },
  );
}
