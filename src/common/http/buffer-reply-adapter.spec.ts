import express, { type Response } from 'express';
import request from 'supertest';
import { Answer } from './answer.js';
import { BufferReplyAdapter } from './buffer-reply-adapter.js';

/** An Express app whose one route sets a Content-Type and hands `body` to the adapter's reply. */
function appReplying(body: unknown, statusCode?: number) {
  const adapter = new BufferReplyAdapter();
  const app = express();
  app.all('/answer', (_request, response: Response) => {
    response.setHeader('Content-Type', 'application/json');
    adapter.reply(response, body, statusCode);
  });
  return app;
}

describe('BufferReplyAdapter', () => {
  const bytes = Buffer.from('{"nid":[{"value":7}],"title":"é"}', 'utf8');

  it('sends a Buffer as its bytes, with its length, under the Content-Type already set and no ETag', async () => {
    const response = await request(appReplying(bytes, 201))
      .get('/answer')
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });

    expect(response.status).toBe(201);
    expect(response.body).toEqual(bytes);
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.headers['content-length']).toBe(String(bytes.length));
    expect(response.headers.etag).toBeUndefined();
  });

  it('answers a HEAD request with the headers and no body', async () => {
    const response = await request(appReplying(bytes)).head('/answer');

    expect(response.status).toBe(200);
    expect(response.headers['content-length']).toBe(String(bytes.length));
    expect(response.text).toBeUndefined();
  });

  it('leaves every other value to Nest: an object is answered as JSON', async () => {
    const response = await request(appReplying({ message: 'ok' })).get('/answer');

    expect(response.body).toEqual({ message: 'ok' });
    expect(response.headers['content-type']).toMatch(/^application\/json/);
  });

  it('sends an Answer with its status and headers: a Buffer body as its bytes, with no ETag', async () => {
    const answer = new Answer(bytes, {
      status: 202,
      headers: { Location: 'http://localhost/node/7', 'Content-Type': 'application/hal+json' },
    });

    const response = await request(appReplying(answer)).get('/answer');

    expect(response.status).toBe(202);
    expect(response.headers.location).toBe('http://localhost/node/7');
    expect(response.headers['content-type']).toBe('application/hal+json');
    expect(response.headers['content-length']).toBe(String(bytes.length));
    expect(response.headers.etag).toBeUndefined();
  });

  it('sends an Answer whose body is an object as JSON, with its status', async () => {
    const response = await request(appReplying(new Answer({ message: 'not stored' }, { status: 202 }))).get('/answer');

    expect(response.status).toBe(202);
    expect(response.body).toEqual({ message: 'not stored' });
  });
});
