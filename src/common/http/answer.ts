import type { HttpStatus } from '@nestjs/common';

interface AnswerOptions {
  /** The status, where the outcome decides it; else the route's (`@HttpCode`, or Nest's 200/201). */
  status?: HttpStatus;
  headers?: Readonly<Record<string, string>>;
}

/**
 * What a handler returns when its status or a header depends on what happened: the body, with the
 * status and headers it goes out with, applied as it is sent (`BufferReplyAdapter`), so that an
 * error's answer never carries them. A Buffer body is sent as its bytes, a `StreamableFile`
 * streamed, anything else as JSON.
 */
export class Answer<T = unknown> {
  readonly status?: HttpStatus;
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    readonly body: T,
    options: AnswerOptions = {},
  ) {
    this.status = options.status;
    this.headers = options.headers ?? {};
  }
}
