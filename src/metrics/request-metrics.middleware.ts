import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { routePattern } from '../common/http/route-pattern.js';
import { MetricsService } from './metrics.service.js';

/** Times every request; labels use the route pattern (`/node/:nid`), never the raw path. */
@Injectable()
export class RequestMetricsMiddleware implements NestMiddleware {
  constructor(private readonly metrics: MetricsService) {}

  use(request: Request, response: Response, next: NextFunction): void {
    const started = process.hrtime.bigint();
    response.once('finish', () => {
      const route = routePattern(request) ?? 'unmatched';
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      this.metrics.observeRequest(request.method, route, response.statusCode, seconds);
    });
    next();
  }
}
