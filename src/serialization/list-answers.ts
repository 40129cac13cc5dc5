import { StreamableFile } from '@nestjs/common';
import { pipeline, Readable } from 'node:stream';
import { Answer } from '../common/http/answer.js';
import { csvStringifier } from './csv-stringifier.js';
import { CONTENT_TYPES, CSV_CONTENT_TYPE } from './response-format.js';

// Answers of the list routes (`@Answers()`): whole JSON documents as one Buffer, CSV as a stream.

/** A JSON answer as exact bytes (records inside it are spliced in as GET /node/{nid} renders them). */
export function jsonAnswer(text: string, headers: Readonly<Record<string, string>> = {}): Answer<Buffer> {
  return new Answer(Buffer.from(text, 'utf8'), { headers: { 'Content-Type': CONTENT_TYPES.json, ...headers } });
}

/**
 * A CSV answer written as the rows come: from chunks read as the client takes them (a full export
 * holds no more than one chunk in memory), or from rows already read. A `StreamableFile` because it
 * is Nest's one public way to stream an answer with backpressure, which is what bounds an export's
 * memory. A failure half-way (the database gone) cuts the connection, so that the client cannot take
 * a truncated file for a whole one.
 */
export function csvAnswer<T>(
  rows: AsyncIterable<T[]> | T[],
  toRow: (item: T) => object,
  columns: readonly string[],
  filename: string,
  headers: Readonly<Record<string, string>> = {},
): Answer<StreamableFile> {
  const source = Array.isArray(rows) ? Readable.from(rows.map(toRow)) : Readable.from(flatten(rows, toRow));
  const csv = pipeline(source, csvStringifier(columns), () => undefined);
  return new Answer(new StreamableFile(csv, { type: CSV_CONTENT_TYPE, disposition: `attachment; filename="${filename}"` }), { headers });
}

async function* flatten<T>(chunks: AsyncIterable<T[]>, toRow: (item: T) => object): AsyncGenerator<object> {
  for await (const chunk of chunks) for (const item of chunk) yield toRow(item);
}

/** `Link: <url>; rel="next"` (RFC 8288): where the next page is. */
export function nextLink(url: string): string {
  return `<${url}>; rel="next"`;
}
