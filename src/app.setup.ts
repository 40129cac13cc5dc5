import type { INestApplication, NestApplicationOptions } from '@nestjs/common';
import type { AbstractHttpAdapter } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { BufferReplyAdapter } from './common/http/buffer-reply-adapter.js';
import { answerClientErrors } from './common/http/client-errors.js';
import { ApiException } from './common/errors/api-exception.js';
import { requestRefusal } from './common/http/request-target.js';
import { APP_CONFIG, AppConfig } from './config/app-config.js';
import { SECURITY_HEADER_OPTIONS, securityHeaderFields, securityHeaders } from './common/http/security-headers.js';
import { withDatabaseBudget } from './database/database-deadline.js';
import { startRequestLine } from './logging/request-line.js';
import { SERVICE_LOG, ServiceLogger } from './logging/service-logger.js';
import { INTEGRATION_KEY_SCHEME } from './integrations/integrations.api-docs.js';
import { metricsOnServicePort } from './metrics/metrics.controller.js';
import { setupOpenApi } from './openapi/openapi.setup.js';

/** How the caller makes its Nest application (`NestFactory.create` or a testing module's `createNestApplication`). */
type AppFactory = (adapter: AbstractHttpAdapter, options: NestApplicationOptions) => INestApplication | Promise<INestApplication>;

/**
 * The application as `main.ts` serves it and the end-to-end tests drive it: made by `factory` on the
 * platform that sends rendered answers as their bytes (`BufferReplyAdapter`), then given the
 * settings Nest modules cannot express. Body parsing is per route (each feature module installs its
 * own parser), hence `bodyParser: false`; logs wait for the JSON logger (`bufferLogs`).
 */
export async function createApp(factory: AppFactory, options: NestApplicationOptions = {}): Promise<INestApplication> {
  const app = await factory(new BufferReplyAdapter(), { ...options, bodyParser: false, bufferLogs: true });
  configureApp(app);
  return app;
}

function configureApp(app: INestApplication): void {
  const config = app.get<AppConfig>(APP_CONFIG);
  app.useLogger(app.get(ServiceLogger));
  // First, so that every request has its log line, and everything it does (the bearer check, its
  // queries, its row's transaction) shares one bound on waiting for the database and names the
  // request on any line it logs: one request scope for both.
  const { requestTimeoutMs } = config.database;
  const log = app.get<Logger>(SERVICE_LOG);
  app.use((request: IncomingMessage, response: ServerResponse, next: () => void) =>
    withDatabaseBudget(requestTimeoutMs, next, startRequestLine(log, request, response)),
  );
  app.use(securityHeaders(SECURITY_HEADER_OPTIONS));
  // Before any route: through the exception filter, with the security headers just set.
  app.use((request: IncomingMessage, _response: unknown, next: (error?: unknown) => void) => {
    const refusal = requestRefusal(request);
    next(refusal === undefined ? undefined : new ApiException(refusal.status, refusal.message));
  });
  answerClientErrors(app.getHttpServer() as Server, config.requestBodyTimeoutMs, securityHeaderFields(SECURITY_HEADER_OPTIONS));
  const express = (app as NestExpressApplication).getHttpAdapter().getInstance();
  express.disable('x-powered-by');
  if (config.trustProxy !== undefined) express.set('trust proxy', config.trustProxy);
  setupOpenApi(app, config, [INTEGRATION_KEY_SCHEME], metricsOnServicePort(config) ? [] : ['/metrics']);
}
