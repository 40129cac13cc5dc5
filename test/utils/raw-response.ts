import type { Test } from 'supertest';

/** Reads the body as the exact text sent, whatever its type, so it can be compared byte for byte. */
export function asText(call: Test): Test {
  return call.buffer(true).parse((response, done) => {
    const stream = response as unknown as NodeJS.ReadableStream;
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => done(null, Buffer.concat(chunks).toString('utf8')));
  });
}
