import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger, NotFoundException } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { parse as parseContentType } from 'content-type';
import type { Request, Response } from 'express';
import { ApiException } from '../errors/api-exception.js';
import { CommitUnconfirmedError } from '../errors/commit-unconfirmed.error.js';
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from '../errors/database-unavailable.js';
import { allowedMethods } from '../http/allowed-methods.js';
import { REQUEST_ABORTED_MESSAGE } from '../http/client-errors.js';
import { BODY_TOO_LARGE_MESSAGE, noRouteMessage } from '../http/route-messages.js';

interface ErrorAnswer {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

/** Seconds a client should wait before retrying when the database is away. */
const DATABASE_RETRY_AFTER = '5';

/**
 * The one place that turns an error into a response: `{"message": …}` bodies (token-endpoint errors
 * keep their RFC 6749 members), Drupal's texts for routing and body errors, 503 when the database
 * is away, and a bare 500 for anything else — never a stack trace or SQL.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpErrors');

  constructor(private readonly adapterHost: HttpAdapterHost) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const request = host.switchToHttp().getRequest<Request>();
    const response = host.switchToHttp().getResponse<Response>();
    const answer = this.toAnswer(exception, request);
    this.log(exception, answer, request);
    if (response.headersSent) {
      response.end();
      return;
    }
    for (const [name, value] of Object.entries(answer.headers ?? {})) response.setHeader(name, value);
    response.status(answer.status).json(answer.body);
  }

  private toAnswer(exception: unknown, request: Request): ErrorAnswer {
    if (exception instanceof ApiException) {
      return { status: exception.getStatus(), body: exception.getResponse() as Record<string, unknown>, headers: exception.headers };
    }
    if (exception instanceof NotFoundException && isUnmatchedRoute(exception)) {
      return this.unmatchedRoute(request);
    }
    if (exception instanceof HttpException) {
      return fromBodyParser(exception, request) ?? fromHttpException(exception);
    }
    if (isDatabaseUnavailable(exception)) {
      return {
        status: HttpStatus.SERVICE_UNAVAILABLE,
        body: {
          message:
            exception instanceof CommitUnconfirmedError
              ? 'The database did not confirm the record in time: it may have been stored. A retry may store it twice.'
              : DATABASE_UNAVAILABLE_MESSAGE,
        },
        headers: { 'Retry-After': DATABASE_RETRY_AFTER },
      };
    }
    return { status: HttpStatus.INTERNAL_SERVER_ERROR, body: { message: 'Internal server error' } };
  }

  private unmatchedRoute(request: Request): ErrorAnswer {
    const path = request.path;
    const allow = allowedMethods(this.adapterHost.httpAdapter.getInstance(), path);
    if (allow.length > 0) {
      return {
        status: HttpStatus.METHOD_NOT_ALLOWED,
        body: { message: `${noRouteMessage(request.method, path)}: Method Not Allowed (Allow: ${allow.join(', ')})` },
        headers: { Allow: allow.join(', ') },
      };
    }
    return { status: HttpStatus.NOT_FOUND, body: { message: noRouteMessage(request.method, path) } };
  }

  /**
   * Bugs are logged with their stack; deliberate answers and database outages by their message only.
   * The line names the request by the id its request line carries (sent as X-Request-Id, or made up by
   * the request logger).
   */
  private log(exception: unknown, answer: ErrorAnswer, request: Request): void {
    // The path without its query string: a caller may put a token or password there.
    const path = request.originalUrl.split('?')[0];
    const requestId = (request as Request & { id?: unknown }).id ?? '-';
    const context = `${request.method} ${path} -> ${answer.status} request_id=${String(requestId)}`;
    const message = exception instanceof Error ? exception.message : String(exception);
    if (answer.status < 500) {
      this.logger.debug(`${context}: ${String(answer.body.message ?? answer.body.error ?? '')}`);
    } else if (exception instanceof HttpException || answer.status === HttpStatus.SERVICE_UNAVAILABLE) {
      this.logger.warn(`${context}: ${message}`);
    } else {
      this.logger.error(`${context}: ${exception instanceof Error ? (exception.stack ?? message) : message}`);
    }
  }
}

function isUnmatchedRoute(exception: NotFoundException): boolean {
  return /^Cannot [A-Z]+ /.test(exception.message);
}

/** Errors raised by Express' body parsers, which Nest wraps with the original as `cause`. */
function fromBodyParser(exception: HttpException, request: Request): ErrorAnswer | undefined {
  const type = (exception.cause as { type?: unknown } | undefined)?.type;
  switch (type) {
    case 'entity.parse.failed':
      return { status: HttpStatus.UNPROCESSABLE_ENTITY, body: { message: 'Syntax error' } };
    case 'entity.too.large':
      return { status: HttpStatus.PAYLOAD_TOO_LARGE, body: { message: BODY_TOO_LARGE_MESSAGE } };
    case 'charset.unsupported':
      return { status: HttpStatus.UNSUPPORTED_MEDIA_TYPE, body: { message: unsupportedCharsetMessage(exception, request) } };
    case 'encoding.unsupported':
      return { status: HttpStatus.UNSUPPORTED_MEDIA_TYPE, body: { message: exception.message } };
    case 'request.aborted':
      return { status: HttpStatus.BAD_REQUEST, body: { message: REQUEST_ABORTED_MESSAGE } };
    default:
      return undefined;
  }
}

/** body-parser names the charset upper-cased; the client is shown the name it sent. */
function unsupportedCharsetMessage(exception: HttpException, request: Request): string {
  try {
    const { charset } = parseContentType(request).parameters;
    if (charset !== undefined) return `unsupported charset "${charset}"`;
  } catch {
    // body-parser read this Content-Type, so it parses; should it not, its own text is the answer.
  }
  return exception.message;
}

function fromHttpException(exception: HttpException): ErrorAnswer {
  const status = exception.getStatus();
  const body = exception.getResponse();
  if (typeof body === 'string') return { status, body: { message: body } };
  const message = (body as { message?: unknown }).message;
  const text = Array.isArray(message) ? message.join('\n') : typeof message === 'string' ? message : exception.message;
  return { status, body: { message: text } };
}
