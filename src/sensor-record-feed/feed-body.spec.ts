import type { Readable } from 'node:stream';
import type { AppConfig } from '../config/app-config.js';
import type { ResponseFormat } from '../serialization/response-format.js';
import type { SensorRecordModel } from '../serialization/sensor-record.model.js';
import { SerializationService } from '../serialization/serialization.service.js';
import { sensorRecordModelStub } from '../../test/fixtures/sensor-record-model.stub.js';
import { feedBody, RENDER_SLICE } from './feed-body.js';

const config = { baseUrl: 'https://sensors.example.org', siteTimezone: 'Pacific/Auckland' } as AppConfig;
const links = { self: 'https://sensors.example.org/api-sensor/sensor-records', next: 'https://sensors.example.org/next' };

/** Records as a driver that answers at once hands them over: one chunk, already read. */
async function* oneChunk(records: SensorRecordModel[]): AsyncGenerator<SensorRecordModel[]> {
  yield await Promise.resolve(records);
}

const page = (count: number) => Array.from({ length: count }, (_, index) => ({ ...sensorRecordModelStub.full, nid: index + 1 }));

describe(feedBody.name, () => {
  const serialization = new SerializationService(config);

  it.each(['json', 'hal_json', 'xml'] as const)(
    'lets the event loop turn while a large %s page is rendered',
    async (format: ResponseFormat) => {
      const body: Readable = feedBody(oneChunk(page(RENDER_SLICE * 5)), format, links, false, serialization);
      const pieces: string[] = [];
      let piecesWhenAnotherTaskRan: number | undefined;
      setImmediate(() => (piecesWhenAnotherTaskRan = pieces.length));

      for await (const piece of body) pieces.push(piece as string);

      // The head, five slices and the tail; a task queued when the page began ran before the page ended.
      expect(pieces).toHaveLength(7);
      expect(piecesWhenAnotherTaskRan).toBeGreaterThan(0);
      expect(piecesWhenAnotherTaskRan).toBeLessThan(pieces.length);
    },
  );

  it('renders a page sliced for the event loop as one rendered at once', async () => {
    const records = page(RENDER_SLICE * 2 + 1);
    let text = '';
    for await (const piece of feedBody(oneChunk(records), 'json', links, true, serialization)) text += piece as string;

    const rendered = records.map((record) => serialization.render(record, 'json').body).join(',');
    expect(text).toBe(`{"next":"https://sensors.example.org/next","more":true,"records":[${rendered}]}`);
  });
});
