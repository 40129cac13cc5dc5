import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { stdSerializers } from 'pino';
import type { Options } from 'pino-http';
import type { AppConfig } from '../config/app-config.js';
import { routePattern } from '../common/http/route-pattern.js';
import { readLogContext } from './log-context.js';

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/**
 * One JSON line per request: id, method, route, status, duration, and the caller/device when known.
 * Serializers list what is logged rather than redacting what is not, so headers (Authorization),
 * bodies (passwords, client secrets) and tokens can never reach a log line.
 */
export function httpLoggerOptions(config: AppConfig): Options {
  return {
    level: config.logLevel,
    genReqId: (request: IncomingMessage, response: ServerResponse) => {
      const sent = request.headers['x-request-id'];
      const id = typeof sent === 'string' && REQUEST_ID.test(sent) ? sent : randomUUID();
      response.setHeader('X-Request-Id', id);
      return id;
    },
    // Every line logged while a request is handled carries its id at the top level.
    quietReqLogger: true,
    // The request's own line gets its facts (below) as members when it is written, rather than from
    // child loggers made for every request: each child serialises its bindings when it is made, and the
    // caller, route and device are only known at the end anyway.
    quietResLogger: true,
    customAttributeKeys: { reqId: 'request_id', responseTime: 'duration_ms' },
    // The request and response go to their serializers as they are: wrapped, each would first be copied
    // whole (every header, twice per request for the request) only for two or three members to be kept.
    wrapSerializers: false,
    serializers: {
      req: (request: IncomingMessage & { originalUrl?: string }) => ({
        method: request.method,
        path: (request.originalUrl ?? request.url ?? '').split('?')[0],
      }),
      res: (response: ServerResponse) => ({ status: response.statusCode }),
      err: stdSerializers.wrapErrorSerializer((error: { name?: string; message: string }) => ({
        type: error.name,
        message: error.message,
      })),
    },
    customSuccessObject: (request, response, line: object) => ({ ...requestFacts(request, response), ...line }),
    customErrorObject: (request, response, _error, line: object) => ({ ...requestFacts(request, response), ...line }),
    // A 503 is a deliberate answer (no room for a batch, the database away), warned of like the filter's
    // line for it; only a fault the service did not expect is an error.
    customLogLevel: (_request, response, error) =>
      error || (response.statusCode >= 500 && response.statusCode !== 503) ? 'error' : response.statusCode >= 400 ? 'warn' : 'info',
    customSuccessMessage: (request, response) => `${request.method} ${response.statusCode}`,
    customErrorMessage: (request, response) => `${request.method} ${response.statusCode}`,
    transport:
      config.environment === 'development' && prettyAvailable() ? { target: 'pino-pretty', options: { singleLine: true } } : undefined,
  };
}

/** What the request's line says of it, besides its status and duration: the request, route, caller and context. */
function requestFacts(request: IncomingMessage, response: ServerResponse): object {
  const { user } = request as IncomingMessage & { user?: { uid?: number } };
  return { req: request, route: routePattern(request), uid: user?.uid, ...readLogContext(response) };
}

function prettyAvailable(): boolean {
  try {
    import.meta.resolve('pino-pretty');
    return true;
  } catch {
    return false;
  }
}
