import fc from 'fast-check';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { AppConfig } from '../config/app-config.js';
import type { SensorRecordModel } from './sensor-record.model.js';
import { sensorRecordModelStub } from '../../test/fixtures/sensor-record-model.stub.js';
import { SerializationService } from './serialization.service.js';

const config = { baseUrl: 'https://sensors.example.org', siteTimezone: 'Pacific/Auckland' } as AppConfig;
const parser = new XMLParser({ trimValues: false, parseTagValue: false, processEntities: true, htmlEntities: true });

interface ParsedResponse {
  response: { field_sensor_id: { value: string }; field_network: { value: string }; title: { value: string } };
}

function recordWithText(text: string): SensorRecordModel {
  const record = sensorRecordModelStub.full;
  return { ...record, title: `Sensor report: ${text} (now)`, fields: { ...record.fields, devId: text, network: text } };
}

// XML 1.0 Char: tab, LF, CR, U+0020–U+D7FF, U+E000–U+FFFD, U+10000–U+10FFFF. Validation refuses the rest.
const isXmlChar = (character: string) => /^[\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]$/u.test(character);
const hostileText = fc.string({
  unit: fc.oneof(
    fc.constantFrom('<', '>', '&', ']]>', ']]', ']', '"', "'", '&amp;', '&nbsp;', '<![CDATA[', '\n', '\r', '\t', 'é', '😀', '\u2028'),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }).filter(isXmlChar),
  ),
  minLength: 1,
  maxLength: 80,
});

describe('XML rendering', () => {
  const sut = new SerializationService(config);

  it.each([
    'a < b',
    'Tom & Jerry',
    '5 > 4',
    '"quoted" and \'single\'',
    'end ]]> of CDATA',
    ']]>',
    ']]>]]>]]>',
    'x]]>y & <z>',
    'Ngā Kiwi Trap Network 🐀 — ünïcödé',
    '<![CDATA[nested]]>',
    '&lt;already escaped&gt;',
    '   spaced   ',
    'line\r\nbreak',
    '\r',
    'a & b\r\n]]>c',
  ])('stays well-formed and keeps the text %p', (text) => {
    const { body } = sut.render(recordWithText(text), 'xml');

    expect(XMLValidator.validate(body)).toBe(true);
    const parsed = parser.parse(body) as ParsedResponse;
    expect(parsed.response.field_sensor_id.value).toBe(text);
    expect(parsed.response.field_network.value).toBe(text);
    expect(parsed.response.title.value).toBe(`Sensor report: ${text} (now)`);
  });

  it('wraps text with <, > or & whole in CDATA and splits a ]]> across two sections', () => {
    const { body } = sut.render(recordWithText('a]]>b & c'), 'xml');

    expect(body).toContain('<field_network><value><![CDATA[a]]]]><![CDATA[>b & c]]></value></field_network>');
  });

  it('escapes nothing in text without <, > or &', () => {
    const { body } = sut.render(recordWithText('"it\'s" ]] é'), 'xml');

    expect(body).toContain('<field_network><value>"it\'s" ]] é</value></field_network>');
  });

  it('writes a carriage return as a character reference so that it survives parsing', () => {
    const { body } = sut.render(recordWithText('line\r\nbreak'), 'xml');

    expect(body).toContain('<field_network><value>line&#13;\nbreak</value></field_network>');
  });

  it('replaces characters XML 1.0 forbids instead of writing a broken document', () => {
    const { body } = sut.render(recordWithText('bell\u0007 nul\u0000 lone\uD800 \uFFFF'), 'xml');

    expect(XMLValidator.validate(body)).toBe(true);
    expect((parser.parse(body) as ParsedResponse).response.field_network.value).toBe('bell\uFFFD nul\uFFFD lone\uFFFD \uFFFD');
  });

  it('stays well-formed and keeps any text a device may send', () => {
    fc.assert(
      fc.property(hostileText, (text) => {
        const { body } = sut.render(recordWithText(text), 'xml');

        expect(XMLValidator.validate(body)).toBe(true);
        expect((parser.parse(body) as ParsedResponse).response.field_network.value).toBe(text);
      }),
      { numRuns: 300 },
    );
  });
});
