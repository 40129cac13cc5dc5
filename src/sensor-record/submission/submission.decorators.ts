import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { assertSubmissionReadable, isSubmissionTooLarge } from './submission-body.middleware.js';

export interface RawSubmission {
  /** The body was over the size limit and was dropped unread. */
  tooLarge: boolean;
  contentType: string | undefined;
  /** The body as text, without a byte order mark; undefined when its bytes are not valid UTF-8. */
  text: string | undefined;
}

// JSON is UTF-8 (RFC 8259): a byte that does not decode is refused rather than replaced with U+FFFD.
// The decoder drops a leading byte order mark.
const utf8 = new TextDecoder('utf-8', { fatal: true });
const decoded = new WeakMap<Request, string | undefined>();

/** The bytes the route's raw body parser read, decoded once per request however many parameters ask. */
function submittedText(request: Request): string | undefined {
  if (!decoded.has(request)) {
    const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    let text: string | undefined;
    try {
      text = utf8.decode(body);
    } catch {
      text = undefined;
    }
    decoded.set(request, text);
  }
  return decoded.get(request);
}

/** The submission as received; what went wrong reading its bytes, other than their size, is raised here. */
export function rawSubmission(request: Request): RawSubmission {
  assertSubmissionReadable(request);
  return { tooLarge: isSubmissionTooLarge(request), contentType: request.headers['content-type'], text: submittedText(request) };
}

/**
 * The submission as received, for pipes to parse and validate. Parameter decorators run after the
 * guards, so a caller without a valid token never learns anything about its body.
 */
export const Submission = createParamDecorator((_data: unknown, context: ExecutionContext): RawSubmission =>
  rawSubmission(context.switchToHttp().getRequest<Request>()),
);

/**
 * The request itself, for a pipe that reads everything a submission route checks before storing it
 * (ParseSubmissionPipe: the answer's format, then the body), so that the route's checks are one pipe
 * rather than a parameter each. Like `Submission`, read after the guards.
 */
export const SubmittedRequest = createParamDecorator((_data: unknown, context: ExecutionContext): Request =>
  context.switchToHttp().getRequest<Request>(),
);

/** The request body as text, kept with the record (only read once the submission's pipes have accepted it). */
export const SubmissionText = createParamDecorator(
  (_data: unknown, context: ExecutionContext): string => submittedText(context.switchToHttp().getRequest<Request>()) ?? '',
);
