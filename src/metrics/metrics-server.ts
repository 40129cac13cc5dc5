import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { createServer, Server } from 'node:http';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { METRICS_TOKEN_REFUSED, presentsMetricsToken } from './metrics-token.js';
import { MetricsService } from './metrics.service.js';

/** Serves `/metrics` on METRICS_PORT at METRICS_HOST when set, so scrapes can stay off the public port. */
@Injectable()
export class MetricsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private server?: Server;

  constructor(
    private readonly metrics: MetricsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { enabled, port, host, token } = this.config.metrics;
    if (!enabled || port === undefined) return;
    this.server = createServer((request, response) => {
      if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
        response.writeHead(404, { 'Content-Type': 'application/json' }).end(JSON.stringify({ message: 'Not found' }));
        return;
      }
      if (!presentsMetricsToken(request.headers.authorization, token)) {
        const { status, message, challenge } = METRICS_TOKEN_REFUSED;
        response.writeHead(status, { 'Content-Type': 'application/json', 'WWW-Authenticate': challenge }).end(JSON.stringify({ message }));
        return;
      }
      this.metrics.registry.metrics().then(
        (text) => response.writeHead(200, { 'Content-Type': this.metrics.registry.contentType }).end(text),
        () => response.writeHead(500, { 'Content-Type': 'application/json' }).end(JSON.stringify({ message: 'Internal server error' })),
      );
    });
    await new Promise<void>((resolve, reject) => this.server?.once('error', reject).listen(port, host, resolve));
    new Logger(MetricsServer.name).log(`Metrics on ${host}:${port}`);
  }

  async onApplicationShutdown(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
