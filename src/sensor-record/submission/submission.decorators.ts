import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';

export interface RawSubmission {
  contentType: string | undefined;
  /** The bytes the route's raw body parser read (undefined when the request had no body). */
  body: Buffer | undefined;
}

const rawBody = (request: Request): Buffer | undefined => (Buffer.isBuffer(request.body) ? request.body : undefined);

/**
 * The submission as received, for pipes to parse and validate. Parameter decorators run after the
 * guards, so a caller without a valid token never learns anything about its body.
 */
export const Submission = createParamDecorator((_data: unknown, context: ExecutionContext): RawSubmission => {
  const request = context.switchToHttp().getRequest<Request>();
  return { contentType: request.headers['content-type'], body: rawBody(request) };
});

/** The request body as text, kept with the record. */
export const SubmissionText = createParamDecorator((_data: unknown, context: ExecutionContext): string =>
  decodeBody(rawBody(context.switchToHttp().getRequest<Request>())),
);

/** JSON is UTF-8 (RFC 8259); a byte order mark is tolerated. */
export function decodeBody(body: Buffer | undefined): string {
  return (body ?? Buffer.alloc(0)).toString('utf8').replace(/^\ufeff/, '');
}
