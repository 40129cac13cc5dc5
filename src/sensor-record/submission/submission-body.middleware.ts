import { HttpException, HttpStatus } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { raw } from 'express';
import { isUndecodableBody, undecodableBodyMessage } from '../../common/http/content-encoding.js';

const tooLarge = new WeakSet<Request>();
const unreadable = new WeakMap<Request, unknown>();

/**
 * Reads a submission's bytes, up to `limit`. Whatever goes wrong reading them (a body too large, a
 * `Content-Encoding` that is unknown or does not decode) is kept for later and the request goes on
 * without a body, so that the bearer guard answers first: a caller without a valid token learns
 * nothing about its body, not even its size or encoding. A larger body is read off and dropped; the
 * submission's pipe answers 413 after the guard, and `Submission` raises any other reading error.
 */
export function submissionBody(limit: string) {
  const parse = raw({ type: () => true, limit });
  return (request: Request, response: Response, next: NextFunction): void =>
    parse(request, response, (error?: unknown) => {
      if (error === undefined) return next();
      if ((error as { type?: unknown }).type === 'entity.too.large') tooLarge.add(request);
      else unreadable.set(request, error);
      next();
    });
}

/** Whether the request's body was over the limit (and so was not read into `request.body`). */
export function isSubmissionTooLarge(request: Request): boolean {
  return tooLarge.has(request);
}

/**
 * Throws what went wrong reading the body other than its size, if anything did, wrapped as Nest wraps a
 * middleware's error (the original as `cause`), so that the exception filter answers it as it would have.
 */
export function assertSubmissionReadable(request: Request): void {
  if (!unreadable.has(request)) return;
  const error = unreadable.get(request) as { status?: unknown; message?: unknown; code?: unknown };
  if (isUndecodableBody(error)) {
    throw new HttpException(undecodableBodyMessage(String(request.headers['content-encoding'])), HttpStatus.BAD_REQUEST, {
      cause: error,
    });
  }
  const status = typeof error.status === 'number' && error.status >= 400 && error.status < 500 ? error.status : HttpStatus.BAD_REQUEST;
  throw new HttpException(String(error.message), status, { cause: error });
}
