import type { Response } from 'express';

/** Facts about a request that its single log line should carry (e.g. the device behind a submission). */
export type LogContext = Record<string, string | number | undefined>;

const LOG_CONTEXT = Symbol('logContext');

export function addLogContext(response: Response, context: LogContext): void {
  const holder = response as unknown as { [LOG_CONTEXT]?: LogContext };
  // Added to in place: a request names one or two facts, and a copy per call is garbage per request.
  Object.assign((holder[LOG_CONTEXT] ??= {}), context);
}

export function readLogContext(response: unknown): LogContext {
  return (response as { [LOG_CONTEXT]?: LogContext })[LOG_CONTEXT] ?? {};
}
