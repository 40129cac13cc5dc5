import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { ResponseFormat } from '../serialization/response-format.js';
import type { SensorRecordModel } from '../serialization/sensor-record.model.js';
import type { SerializationService } from '../serialization/serialization.service.js';
import { encodeXml, XML_RESPONSE_CLOSING, xmlResponseContent, xmlResponseOpening } from '../serialization/xml-encoder.js';

export interface FeedLinks {
  self: string;
  next: string;
}

/**
 * Records rendered in one turn of the event loop. Rendering is synchronous work (a page of ten
 * thousand is seconds of it in xml); between slices other requests are served, whatever the pace of
 * the database driver (an in-process one answers without ever leaving the turn).
 */
export const RENDER_SLICE = 100;

interface Envelope {
  head: string;
  /** A rendered record as it stands in the list. */
  item: (rendered: string) => string;
  separator: string;
  empty: string;
  tail: string;
}

/**
 * A page of the feed in json, hal_json or xml (docs/interface.md#get-api-sensorsensor-records): each
 * record rendered by the Serialization module exactly as GET /node/{nid} renders it and placed in the
 * list unchanged, written chunk by chunk as the client takes them, a slice of records at a time with
 * a turn of the event loop between slices.
 */
export function feedBody(
  records: AsyncIterable<SensorRecordModel[]>,
  format: ResponseFormat,
  links: FeedLinks,
  more: boolean,
  serialization: SerializationService,
): Readable {
  const envelope = ENVELOPES[format](links, more);
  async function* text(): AsyncGenerator<string> {
    yield envelope.head;
    let count = 0;
    for await (const chunk of records) {
      for (let start = 0; start < chunk.length; start += RENDER_SLICE) {
        if (count > 0) await nextTurn();
        yield chunk
          .slice(start, start + RENDER_SLICE)
          .map((record) => (count++ > 0 ? envelope.separator : '') + envelope.item(serialization.render(record, format).body))
          .join('');
      }
    }
    yield (count === 0 ? envelope.empty : '') + envelope.tail;
  }
  return Readable.from(text());
}

const ENVELOPES: Record<ResponseFormat, (links: FeedLinks, more: boolean) => Envelope> = {
  json: ({ next }, more) => ({
    head: `{"next":${JSON.stringify(next)},"more":${more},"records":[`,
    item: (rendered) => rendered,
    separator: ',',
    empty: '',
    tail: ']}',
  }),
  hal_json: ({ self, next }, more) => ({
    head: `{"_links":{"self":{"href":${JSON.stringify(self)}},"next":{"href":${JSON.stringify(next)}}},"more":${more},"_embedded":{"item":[`,
    item: (rendered) => rendered,
    separator: ',',
    empty: '',
    tail: ']}}',
  }),
  // As Drupal's encoder writes a list member: one <records> element per record, an empty one for none.
  xml: ({ next }, more) => ({
    head: xmlResponseOpening(encodeXml({ next, more })),
    item: (rendered) => `<records>${xmlResponseContent(rendered)}</records>`,
    separator: '',
    empty: '<records/>',
    tail: XML_RESPONSE_CLOSING,
  }),
};
