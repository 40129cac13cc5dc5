import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { answerClientErrors } from '../common/http/client-errors.js';
import { createHttpServer } from '../common/http/http-server.js';
import { requestRefusal, targetPath } from '../common/http/request-target.js';
import { noRouteMessage } from '../common/http/route-messages.js';
import { SECURITY_HEADER_OPTIONS, securityHeaderFields, securityHeaders } from '../common/http/security-headers.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { METRICS_TOKEN_REFUSED, presentsMetricsToken } from './metrics-token.js';
import { MetricsService } from './metrics.service.js';

const ALLOW = 'GET, HEAD';

/**
 * Serves `/metrics` on METRICS_PORT at METRICS_HOST when set, so scrapes can stay off the public port.
 * It answers as the service's port does (docs/interface.md#errors): the same security headers, JSON
 * `{"message": …}` errors, 405 with `Allow` for another method, HEAD as GET without the body.
 */
@Injectable()
export class MetricsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private server?: Server;
  private readonly withSecurityHeaders = securityHeaders(SECURITY_HEADER_OPTIONS);

  constructor(
    private readonly metrics: MetricsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { enabled, port, host } = this.config.metrics;
    if (!enabled || port === undefined) return;
    this.server = createHttpServer((request, response) =>
      this.withSecurityHeaders(request, response, () => this.answer(request, response)),
    );
    answerClientErrors(this.server, this.config.requestBodyTimeoutMs, securityHeaderFields(SECURITY_HEADER_OPTIONS));
    await new Promise<void>((resolve, reject) => this.server?.once('error', reject).listen(port, host, resolve));
    new Logger(MetricsServer.name).log(`Metrics on ${host}:${port}`);
  }

  async onApplicationShutdown(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private answer(request: IncomingMessage, response: ServerResponse): void {
    const method = request.method ?? 'GET';
    const refusal = requestRefusal(request);
    if (refusal !== undefined) return sendError(response, refusal.status, refusal.message);
    const path = targetPath(request.url ?? '/');
    if (path !== '/metrics') return sendError(response, 404, noRouteMessage(method, path));
    if (method !== 'GET' && method !== 'HEAD') {
      return sendError(response, 405, `${noRouteMessage(method, path)}: Method Not Allowed (Allow: ${ALLOW})`, { Allow: ALLOW });
    }
    if (!presentsMetricsToken(request.headers.authorization, this.config.metrics.token)) {
      const { status, message, challenge } = METRICS_TOKEN_REFUSED;
      return sendError(response, status, message, { 'WWW-Authenticate': challenge });
    }
    this.metrics.registry.metrics().then(
      (text) =>
        response
          .writeHead(200, { 'Content-Type': this.metrics.registry.contentType, 'Content-Length': Buffer.byteLength(text) })
          .end(method === 'HEAD' ? undefined : text),
      () => sendError(response, 500, 'Internal server error'),
    );
  }
}

function sendError(response: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  const body = JSON.stringify({ message });
  response.writeHead(status, { ...headers, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  response.end(response.req.method === 'HEAD' ? undefined : body);
}
