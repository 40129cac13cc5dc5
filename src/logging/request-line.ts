import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Level, Logger } from 'pino';
import { routePattern } from '../common/http/route-pattern.js';
import { readLogContext } from './log-context.js';

const REQUEST_ID = /^[\w.:-]{1,128}$/;

type LoggedRequest = IncomingMessage & { id?: string; originalUrl?: string; user?: { uid?: number } };

/**
 * Starts a request's one log line, written when its answer is finished (or its connection closed):
 * its id, method, path, route, caller, the facts its handler added (docs/operations.md#logs), status
 * and duration. Returns the request's id: the `X-Request-Id` it was sent when valid, else a new one,
 * answered in the same header and kept as `request.id` for the exception filter's line.
 * Written as one object at the end rather than through pino-http, whose child loggers serialised the
 * request twice a request only for this line to be built again (docs/benchmark.md#the-log-line).
 */
export function startRequestLine(log: Logger, request: LoggedRequest, response: ServerResponse): string {
  const sent = request.headers['x-request-id'];
  const id = typeof sent === 'string' && REQUEST_ID.test(sent) ? sent : randomUUID();
  response.setHeader('X-Request-Id', id);
  request.id = id;
  const start = Date.now();
  const done = (error?: Error): void => {
    response.off('close', done);
    response.off('finish', done);
    response.off('error', done);
    writeRequestLine(log, request, response, id, Date.now() - start, error);
  };
  response.on('close', done);
  response.on('finish', done);
  response.on('error', done);
  return id;
}

function writeRequestLine(
  log: Logger,
  request: LoggedRequest,
  response: ServerResponse,
  id: string,
  durationMs: number,
  error: Error | undefined,
): void {
  const status = response.statusCode;
  // A 503 is a deliberate answer (no room for a batch, the database away), warned of like the filter's
  // line for it; only a fault the service did not expect is an error.
  const level: Level = error || (status >= 500 && status !== 503) ? 'error' : status >= 400 ? 'warn' : 'info';
  if (!log.isLevelEnabled(level)) return;
  const url = request.originalUrl ?? request.url ?? '';
  const query = url.indexOf('?');
  const line: Record<string, unknown> = {
    request_id: id,
    req: { method: request.method, path: query === -1 ? url : url.slice(0, query) },
    route: routePattern(request),
    uid: request.user?.uid,
    ...readLogContext(response),
    res: { status },
  };
  if (error || status >= 500) line.err = error ?? new Error(`failed with status code ${status}`);
  line.duration_ms = durationMs;
  log[level](line, `${request.method} ${status}`);
}
