import { Controller, Get, Headers, HttpStatus, Inject } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { Public } from '../auth/public.decorator.js';
import { ApiException } from '../common/errors/api-exception.js';
import { noRouteMessage } from '../common/http/route-messages.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { Answer } from '../common/http/answer.js';
import { METRICS_TOKEN_REFUSED, presentsMetricsToken } from './metrics-token.js';
import { MetricsService } from './metrics.service.js';

/** Whether `GET /metrics` is served on the service's port: metrics on, and not moved to METRICS_PORT. */
export function metricsOnServicePort(config: AppConfig): boolean {
  return config.metrics.enabled && config.metrics.port === undefined;
}

@ApiTags('Operations')
@Public()
@Controller('metrics')
export class MetricsController {
  constructor(
    private readonly metrics: MetricsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Prometheus metrics (401 without METRICS_TOKEN when set); listed only when served on this port' })
  @ApiProduces('text/plain')
  async scrape(@Headers('authorization') authorization: string | undefined): Promise<Answer<string>> {
    // Switched off, or served on a port of its own: this address then does not exist.
    if (!metricsOnServicePort(this.config)) {
      throw new ApiException(HttpStatus.NOT_FOUND, noRouteMessage('GET', '/metrics'));
    }
    if (!presentsMetricsToken(authorization, this.config.metrics.token)) {
      const { status, message, challenge } = METRICS_TOKEN_REFUSED;
      throw new ApiException(status, message, { 'WWW-Authenticate': challenge });
    }
    const text = await this.metrics.registry.metrics();
    return new Answer(text, { headers: { 'Content-Type': this.metrics.registry.contentType } });
  }
}
