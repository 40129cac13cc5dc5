import { type BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Server } from 'node:http';

const IDLE_SWEEP_MS = 100;

/**
 * On shutdown (SIGTERM), stop accepting connections and let in-flight submissions finish before any
 * shutdown hook releases what they need; TypeORM destroys the pool in `onApplicationShutdown`. Nest 12
 * closes the HTTP server between those phases anyway; this makes the order explicit and closes
 * kept-alive connections as soon as they go idle, so a finished client cannot hold shutdown up.
 */
@Injectable()
export class HttpServerDrain implements BeforeApplicationShutdown {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  async beforeApplicationShutdown(): Promise<void> {
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    if (!server?.listening) return;
    const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
    try {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    } finally {
      clearInterval(sweep);
    }
  }
}
