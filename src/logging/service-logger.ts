import { Inject, Injectable, type LoggerService } from '@nestjs/common';
import type { Level, Logger } from 'pino';
import { currentRequestId } from '../common/http/request-scope.js';

/** The service's pino logger (`createServiceLog`). */
export const SERVICE_LOG = Symbol('SERVICE_LOG');

/** Nest's stack traces arrive as `error(message, stack)`, the stack a string of `at …` lines. */
const STACK = /\n\s*at /;

/**
 * Nest's logger interface over the service's pino logger: `log(message, context)` becomes a line
 * with `context` and `msg`, and a line logged while a request is handled carries its `request_id`.
 */
@Injectable()
export class ServiceLogger implements LoggerService {
  constructor(@Inject(SERVICE_LOG) private readonly pino: Logger) {}

  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }

  log(message: unknown, ...params: unknown[]): void {
    this.write('info', message, params);
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }

  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }

  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  /** Nest passes the context last; what comes between the message and it is interpolated into the message. */
  private write(level: Level, message: unknown, params: unknown[]): void {
    if (!this.pino.isLevelEnabled(level)) return;
    const line: Record<string, unknown> = {};
    const requestId = currentRequestId();
    if (requestId !== undefined) line.request_id = requestId;
    if (params.length > 0) line.context = params[params.length - 1];
    const rest = params.slice(0, -1);
    if (message instanceof Error) {
      line.err = message;
      this.pino[level](line, ...(rest as []));
    } else if (typeof message === 'object' && message !== null) {
      this.pino[level](Object.assign(line, message), ...(rest as []));
    } else if (
      level === 'error' &&
      typeof message === 'string' &&
      rest.length === 1 &&
      typeof rest[0] === 'string' &&
      STACK.test(rest[0])
    ) {
      const error = new Error(message);
      error.stack = rest[0];
      line.err = error;
      this.pino[level](line);
    } else {
      this.pino[level](line, message as string, ...(rest as []));
    }
  }
}
