import { type BeforeApplicationShutdown, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';

/**
 * On shutdown (SIGTERM), stop accepting connections and let in-flight submissions finish before any
 * shutdown hook releases what they need; TypeORM destroys the pool in `onApplicationShutdown`. Nest 12
 * closes the HTTP server between those phases anyway; this makes the order explicit.
 *
 * A connection is never closed under a request its client may be sending (a reset leaves the client
 * unable to tell whether its request was read; ChirpStack does not retry). While draining, every open
 * connection is still read, each answer says `Connection: close` and its connection closes after it, so
 * a keep-alive client sends its next request on a new connection, which is refused. A connection that
 * stays idle is closed by the server's keep-alive timeout, which its `Keep-Alive: timeout=5` header
 * announced to the client (docs/interface.md#operations-endpoints).
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
    // net.Server's close: stop listening, call back once every connection has ended. http.Server's own
    // close() first closes each connection with no request in progress, and a request arriving on one
    // that moment meets a reset. Nest's later close() of the HTTP server stops its timeout checks.
    await new Promise<void>((resolve) => Reflect.apply(NetServer.prototype.close, server, [() => resolve()]));
  }

  private server(): Server | undefined {
    return this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
  }
}
