import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Response } from 'express';
import { Answer } from './answer.js';
import { createHttpServer } from './http-server.js';

/**
 * Express as Nest drives it, plus the one way handlers answer (docs/development.md#how-a-route-answers):
 * an `Answer` has its status and headers set as it is sent, and a Buffer (a rendered record, a JSON
 * list) is sent as its bytes, with its Content-Length, under the headers already set on the response.
 * Nest itself would serialise a Buffer as JSON, or needs a StreamableFile (a stream and a pipe per
 * request) to send bytes; rendered answers are whole in memory, so one write does. Express's `send()`
 * is not used for them: it would add a charset to the Content-Types of
 * docs/interface.md#response-formats, and an ETag to answers that carry none. Every other body goes
 * through Nest's own reply. Its server is Node's, made with the service's options.
 */
export class BufferReplyAdapter extends ExpressAdapter {
  /**
   * Node's server as `createHttpServer` makes it, which Nest's own cannot be. The service speaks
   * plain HTTP (TLS ends at the proxy) and sets none of the options Nest's server honours
   * (`httpsOptions`, `return503OnClosing`, `forceCloseConnections`): it drains on its own
   * (http-server-drain.service.ts).
   */
  override initHttpServer(options: NestApplicationOptions): void {
    if (options.httpsOptions || options.return503OnClosing || options.forceCloseConnections) {
      throw new Error(
        'BufferReplyAdapter serves plain HTTP and drains on its own: httpsOptions, return503OnClosing and forceCloseConnections are not supported',
      );
    }
    this.setHttpServer(createHttpServer(this.getInstance()));
  }

  override reply(response: Response, body: unknown, statusCode?: number): unknown {
    if (body instanceof Answer) {
      if (body.status !== undefined) response.status(body.status);
      for (const name in body.headers) response.setHeader(name, body.headers[name]!);
      body = body.body;
    }
    if (!Buffer.isBuffer(body)) return super.reply(response, body, statusCode);
    if (statusCode !== undefined) response.status(statusCode);
    response.setHeader('Content-Length', body.length);
    // A HEAD request gets the headers only: Node drops the body of a HEAD response.
    return response.end(body);
  }
}
