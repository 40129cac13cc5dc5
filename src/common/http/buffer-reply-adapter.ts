import { ExpressAdapter } from '@nestjs/platform-express';
import type { Response } from 'express';

/**
 * Express as Nest drives it, plus one kind of answer: a handler or interceptor that returns a Buffer
 * has those bytes sent as they are, with their Content-Length, under the headers already set on the
 * response. Nest itself would serialise a Buffer as JSON, or needs a StreamableFile (a stream and a
 * pipe per request) to send bytes; rendered sensor records are whole in memory, so one write does.
 * Express's `send()` is not used for them: it would add a charset to the Content-Types of
 * docs/interface.md#response-formats, and an ETag to answers that carry none. Every other value goes through Nest's own reply.
 */
export class BufferReplyAdapter extends ExpressAdapter {
  override reply(response: Response, body: unknown, statusCode?: number): unknown {
    if (!Buffer.isBuffer(body)) return super.reply(response, body, statusCode);
    if (statusCode !== undefined) response.status(statusCode);
    response.setHeader('Content-Length', body.length);
    // A HEAD request gets the headers only: Node drops the body of a HEAD response.
    return response.end(body);
  }
}
