import type { NextFunction, Request, Response } from 'express';
import { urlencoded } from 'express';
import { isUndecodableBody } from '../../common/http/content-encoding.js';
import { DEFAULT_BODY_LIMIT } from '../../common/http/route-messages.js';
import { OAuthErrors } from './oauth-errors.js';

/**
 * Reads the token endpoint's form. A body its Content-Encoding does not decode is a malformed token
 * request, answered in RFC 6749's shape (`invalid_request`); the parser's other refusals (size,
 * charset, parameter count) keep their plain `{"message"}` (docs/interface.md#errors).
 */
export function tokenFormBody() {
  const parse = urlencoded({ extended: false, limit: DEFAULT_BODY_LIMIT.bytes });
  return (request: Request, response: Response, next: NextFunction): void =>
    parse(request, response, (error?: unknown) =>
      next(isUndecodableBody(error) ? OAuthErrors.undecodableBody(String(request.headers['content-encoding'])) : error),
    );
}
