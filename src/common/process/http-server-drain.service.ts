import { type BeforeApplicationShutdown, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

const IDLE_SWEEP_MS = 100;

/**
 * On shutdown (SIGTERM), stop accepting connections and let in-flight submissions finish before any
 * shutdown hook releases what they need; TypeORM destroys the pool in `onApplicationShutdown`. Nest 12
 * closes the HTTP server between those phases anyway; this makes the order explicit.
 *
 * Every answer sent while draining says `Connection: close`, and the connection closes after it: a
 * keep-alive client then sends its next request on a new connection, which is refused, instead of on
 * the old one, which the server would close under it (a reset leaves the client unable to tell
 * whether its request was read). Connections with no request in progress are closed as they go idle.
 */
@Injectable()
export class HttpServerDrainService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private draining = false;
  private readonly inProgress = new Set<ServerResponse>();

  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onApplicationBootstrap(): void {
    // First among the listeners, so the header is set before any handler can send an answer.
    this.server()?.prependListener('request', (_request: IncomingMessage, response: ServerResponse) => {
      if (this.draining) {
        response.setHeader('Connection', 'close');
        return;
      }
      this.inProgress.add(response);
      response.once('close', () => this.inProgress.delete(response));
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.draining = true;
    for (const response of this.inProgress) if (!response.headersSent) response.setHeader('Connection', 'close');
    const server = this.server();
    if (!server?.listening) return;
    const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
    try {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    } finally {
      clearInterval(sweep);
    }
  }

  private server(): Server | undefined {
    return this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
  }
}
