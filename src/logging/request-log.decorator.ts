import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Response } from 'express';
import { addLogContext, type LogContext } from './log-context.js';

/** Adds facts to the request's one log line (e.g. the device behind a submission). */
export type LogFields = (context: LogContext) => void;

/** The handler's way to name facts for its request's log line, without holding the response. */
export const RequestLog = createParamDecorator(
  (_data: unknown, context: ExecutionContext): LogFields =>
    (fields) =>
      addLogContext(context.switchToHttp().getResponse<Response>(), fields),
);
