import type { NextFunction, Request, Response } from 'express';
import { raw } from 'express';

const tooLarge = new WeakSet<Request>();

/**
 * Reads a submission's bytes, up to `limit`. A larger body is read off and dropped, and the request
 * goes on without it, so that the bearer guard answers first: a caller without a valid token learns
 * nothing about its body, not even that it is too large. The submission's pipe answers 413 after it.
 */
export function submissionBody(limit: string) {
  const parse = raw({ type: () => true, limit });
  return (request: Request, response: Response, next: NextFunction): void =>
    parse(request, response, (error?: unknown) => {
      if ((error as { type?: unknown } | undefined)?.type !== 'entity.too.large') return next(error);
      tooLarge.add(request);
      next();
    });
}

/** Whether the request's body was over the limit (and so was not read into `request.body`). */
export function isSubmissionTooLarge(request: Request): boolean {
  return tooLarge.has(request);
}
