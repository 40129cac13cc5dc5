import { Controller, Get, HttpStatus, ServiceUnavailableException } from '@nestjs/common';
import { HealthCheck, HealthCheckResult, HealthCheckService } from '@nestjs/terminus';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../auth/public.decorator.js';
import { ApiException } from '../common/errors/api-exception.js';
import { PACKAGE_VERSION } from '../common/package/package-version.js';
import { DatabaseHealthIndicator } from './database.health.js';

/** How long the readiness probe waits for the database before calling it down. */
const DATABASE_PING_TIMEOUT_MS = 1500;

@ApiTags('Operations')
@Public()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: DatabaseHealthIndicator,
  ) {}

  /**
   * Liveness: the process answers, and which version it runs (for a rolling upgrade). Checks nothing
   * else, so a database outage never gets it restarted.
   */
  @Get()
  @ApiOperation({ summary: 'Liveness: the process answers, with the version it runs' })
  live(): { status: 'ok'; version: string } {
    return { status: 'ok', version: PACKAGE_VERSION };
  }

  /** Readiness: the database answers a query within a short timeout. */
  @Get('ready')
  @ApiOperation({ summary: 'Readiness: the database answers within 1.5 s (503 naming what is down otherwise)' })
  @HealthCheck()
  async ready(): Promise<HealthCheckResult> {
    try {
      return await this.health.check([() => this.database.pingCheck('database', DATABASE_PING_TIMEOUT_MS)]);
    } catch (error) {
      if (!(error instanceof ServiceUnavailableException)) throw error;
      const result = error.getResponse() as HealthCheckResult;
      const down = Object.keys(result.error ?? {});
      throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, {
        message: `Not ready: ${down.join(', ') || 'a dependency'} is down.`,
        ...result,
      });
    }
  }
}
