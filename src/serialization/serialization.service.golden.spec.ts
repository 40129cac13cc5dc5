import { readFileSync } from 'node:fs';
import type { AppConfig } from '../config/app-config.js';
import { sensorRecordModelStub } from '../../test/fixtures/sensor-record-model.stub.js';
import { SerializationService } from './serialization.service.js';
import type { ResponseFormat } from './response-format.js';

const config = { baseUrl: 'https://sensors.example.org', siteTimezone: 'Pacific/Auckland' } as AppConfig;
const goldenDirectory = new URL('../../test/golden/', import.meta.url);
const extensions: Record<ResponseFormat, string> = { json: 'json', hal_json: 'hal.json', xml: 'xml' };
const cases = (['full', 'minimal'] as const).flatMap((stub) =>
  (['json', 'hal_json', 'xml'] as const).map((format) => [stub, format, `${stub}.${extensions[format]}`] as const),
);

function golden(name: string): Buffer {
  return readFileSync(new URL(name, goldenDirectory));
}

describe(`${SerializationService.name} golden files`, () => {
  const sut = new SerializationService(config);

  it.each(cases)('renders the %s record as %s byte for byte like test/golden/%s', (stub, format, file) => {
    const { body } = sut.render(sensorRecordModelStub[stub], format);

    expect(Buffer.from(body, 'utf8').equals(golden(file))).toBe(true);
    expect(body).toBe(golden(file).toString('utf8'));
  });

  // The pretty copies exist for readers; they must say the same as the exact bytes.
  it.each(cases)('keeps the readable copy of the %s record as %s in step (%s)', (_stub, format, file) => {
    const pretty = golden(`pretty/${file}`).toString('utf8');
    const exact = golden(file).toString('utf8');

    if (format === 'xml') {
      const [declaration, ...rest] = pretty.split('\n');
      expect(`${declaration}\n${rest.join('\n').replace(/>\n\s*</g, '><')}`).toBe(exact);
    } else {
      expect(JSON.stringify(JSON.parse(pretty))).toBe(exact);
    }
  });
});
