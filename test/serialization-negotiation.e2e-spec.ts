import { XMLValidator } from 'fast-xml-parser';
import request from 'supertest';
import { SensorRecordService } from '../src/sensor-record/sensor-record.service.js';
import type { ResponseFormat } from '../src/serialization/response-format.js';
import { SerializationService } from '../src/serialization/serialization.service.js';
import { submissionStub } from './fixtures/submission.stub.js';
import { ingestCaller } from './utils/auth-fixtures.js';
import { asText } from './utils/raw-response.js';
import { createTestApp, TestApp } from './utils/test-app.js';

const RECORD_PATH = '/api-sensor/iot/sensor-record';
const CONTENT_TYPES: Record<ResponseFormat, string> = {
  json: 'application/json',
  hal_json: 'application/hal+json',
  xml: 'text/xml; charset=UTF-8',
};

// [query string, Accept header (undefined: none sent), format expected]
const NEGOTIATION_CASES: ReadonlyArray<readonly [string, string | undefined, ResponseFormat]> = [
  ['?_format=json', undefined, 'json'],
  ['?_format=hal_json', undefined, 'hal_json'],
  ['?_format=xml', undefined, 'xml'],
  ['?_format=json', 'application/xml', 'json'],
  ['?_format=xml', 'application/hal+json', 'xml'],
  ['', 'application/hal+json', 'hal_json'],
  ['', 'application/json', 'json'],
  ['', 'application/xml', 'xml'],
  ['', 'text/xml', 'xml'],
  ['', 'application/json;q=0.5, text/xml', 'xml'],
  ['', 'text/xml;q=0.2, application/json;q=0.9', 'json'],
  ['', 'application/xml, application/json', 'xml'],
  ['', '*/*', 'hal_json'],
  ['', 'text/html', 'hal_json'],
  ['', undefined, 'hal_json'],
];

// [query string, the format as the 406 names it]
const UNKNOWN_FORMATS: ReadonlyArray<readonly [string, string]> = [
  ['?_format=yaml', 'yaml'],
  ['?_format=', ''],
  ['?_format=JSON', 'JSON'],
  ['?_format=ya%0Aml', 'ya\\u000aml'],
];

// [query string, the parameter as the 406 names it]
const BRACKETED_FORMATS: ReadonlyArray<readonly [string, string]> = [
  ['?_format[a]=json', '_format[a]=json'],
  ['?_format%5Ba%5D=json', '_format%5Ba%5D=json'],
  ['?_format[]=xml&other=1', '_format[]=xml'],
];

// [query string, the parameters as the 406 names them]
const REPEATED_FORMATS: ReadonlyArray<readonly [string, string]> = [
  ['?_format=json&_format=xml', '_format=json&_format=xml'],
  ['?_format=json&_format=json', '_format=json&_format=json'],
];

const bracketedMessage = (shown: string) =>
  `_format is given with brackets (${shown}): give one format as _format=<format>. Supported formats: hal_json, json, xml.`;

function expectFormat(body: string, format: ResponseFormat): void {
  if (format === 'xml') {
    expect(body.startsWith('<?xml version="1.0"?>\n<response><nid><value>')).toBe(true);
    expect(XMLValidator.validate(body)).toBe(true);
    return;
  }
  const parsed = JSON.parse(body) as Record<string, unknown>;
  expect(Object.keys(parsed)[0]).toBe(format === 'json' ? 'nid' : '_links');
}

describe('Response format negotiation', () => {
  let testApp: TestApp;
  let accessToken: string;

  const countRecords = async () => Number((await testApp.dataSource.query('SELECT COUNT(*) AS count FROM sensor_report'))[0].count);
  /** The stored record as the service renders it, to hold an answer against. */
  const storedRendering = async (nid: number, format: ResponseFormat) => {
    const record = await testApp.app.get(SensorRecordService).findByNid(nid);
    expect(record).not.toBeNull();
    return testApp.app.get(SerializationService).render(record!, format).body;
  };
  const submit = (query: string, accept?: string) => {
    const call = request(testApp.app.getHttpServer())
      .post(`${RECORD_PATH}${query}`)
      .set('Authorization', `Bearer ${accessToken}`)
      .set('Content-Type', 'application/hal+json');
    if (accept !== undefined) call.set('Accept', accept);
    return asText(call).send(JSON.stringify(submissionStub.complete));
  };
  const read = (nid: number, query: string, accept?: string) => {
    const call = request(testApp.app.getHttpServer()).get(`/node/${nid}${query}`).set('Authorization', `Bearer ${accessToken}`);
    if (accept !== undefined) call.set('Accept', accept);
    return asText(call);
  };

  beforeAll(async () => {
    testApp = await createTestApp();
  });

  beforeEach(async () => {
    await testApp.reset();
    ({ accessToken } = await ingestCaller(testApp.app));
  });

  afterAll(async () => {
    await testApp.close();
  });

  describe(`POST ${RECORD_PATH}`, () => {
    it.each(NEGOTIATION_CASES)('answers %p with Accept %p as %s', async (query, accept, format) => {
      const response = await submit(query, accept).expect(201);

      expect(response.headers['content-type']).toBe(CONTENT_TYPES[format]);
      expectFormat(response.body, format);
      expect(await countRecords()).toBe(1);
      const [{ nid }] = await testApp.dataSource.query('SELECT nid FROM sensor_report');
      expect(response.body).toBe(await storedRendering(Number(nid), format));
    });

    it('sends well-formed XML whatever text the device sent, and reads it back the same', async () => {
      const hostile = 'trap <1> & "co" \'s ]]> Ngā 🐀';
      const response = await asText(
        request(testApp.app.getHttpServer())
          .post(`${RECORD_PATH}?_format=xml`)
          .set('Authorization', `Bearer ${accessToken}`)
          .set('Content-Type', 'application/json'),
      )
        .send(JSON.stringify({ ...submissionStub.complete, dev_id: hostile }))
        .expect(201);

      expect(XMLValidator.validate(response.body)).toBe(true);
      expect(response.body).toContain(
        '<field_sensor_id><value><![CDATA[trap <1> & "co" \'s ]]]]><![CDATA[> Ngā 🐀]]></value></field_sensor_id>',
      );
      const [{ nid, field_sensor_id }] = await testApp.dataSource.query('SELECT nid, field_sensor_id FROM sensor_report');
      expect(field_sensor_id).toBe(hostile);
      expect((await read(Number(nid), '?_format=xml').expect(200)).body).toBe(response.body);
    });

    it.each([
      ['no Content-Type', (call: request.Test) => call.unset('Content-Type').send('{}')],
      ['another Content-Type', (call: request.Test) => call.set('Content-Type', 'text/plain').send('{}')],
      ['a body that is not JSON', (call: request.Test) => call.send('{')],
      ['an invalid submission', (call: request.Test) => call.send('{}')],
    ])("checks the format before the body: an unknown _format with %s answers the format's 406", async (_case, withBody) => {
      const call = request(testApp.app.getHttpServer())
        .post(`${RECORD_PATH}?_format=yaml`)
        .set('Authorization', `Bearer ${accessToken}`)
        .set('Content-Type', 'application/hal+json');

      const response = await asText(withBody(call)).expect(406);

      expect(JSON.parse(response.body)).toEqual({
        message: 'No route found for the specified format yaml. Supported formats: hal_json, json, xml.',
      });
    });

    it.each(UNKNOWN_FORMATS)('refuses %p with 406 and stores nothing', async (query, shown) => {
      const response = await submit(query, 'application/json').expect(406);

      expect(JSON.parse(response.body)).toEqual({
        message: `No route found for the specified format ${shown}. Supported formats: hal_json, json, xml.`,
      });
      expect(await countRecords()).toBe(0);
    });

    it.each(BRACKETED_FORMATS)('refuses %p with 406 naming the bracketed parameter, and stores nothing', async (query, shown) => {
      const response = await submit(query, 'application/json').expect(406);

      expect(JSON.parse(response.body)).toEqual({ message: bracketedMessage(shown) });
      expect(await countRecords()).toBe(0);
    });

    it.each(REPEATED_FORMATS)('refuses %p with 406 saying _format is given more than once, and stores nothing', async (query, shown) => {
      const response = await submit(query, 'application/json').expect(406);

      expect(JSON.parse(response.body)).toEqual({
        message: `_format is given more than once (${shown}): give one format. Supported formats: hal_json, json, xml.`,
      });
      expect(await countRecords()).toBe(0);
    });
  });

  describe('GET /node/:nid', () => {
    let nid: number;

    beforeEach(async () => {
      const created = await submit('?_format=json').expect(201);
      nid = (JSON.parse(created.body) as { nid: [{ value: number }] }).nid[0].value;
    });

    it.each(NEGOTIATION_CASES)('answers %p with Accept %p as %s', async (query, accept, format) => {
      const response = await read(nid, query, accept).expect(200);

      expect(response.headers['content-type']).toBe(CONTENT_TYPES[format]);
      expectFormat(response.body, format);
      expect(response.body).toBe(await storedRendering(nid, format));
    });

    it('answers a conditional GET as Express does: a weak ETag of the bytes, 304 without a body when it matches', async () => {
      const first = await read(nid, '?_format=json').expect(200);
      const etag = first.headers.etag;
      expect(etag).toMatch(/^W\/"[0-9a-f]+-[A-Za-z0-9+/_-]+"$/);
      expect(first.headers['content-length']).toBe(String(Buffer.byteLength(first.body)));

      const again = await read(nid, '?_format=json').set('If-None-Match', etag!).expect(304);

      expect(again.body).toBe('');
      expect(again.headers.etag).toBe(etag);
      expect(again.headers['content-type']).toBeUndefined();
    });

    it('checks the format before the nid: an unknown _format with a nid that is not a number answers 406', async () => {
      const response = await asText(
        request(testApp.app.getHttpServer()).get('/node/abc?_format=yaml').set('Authorization', `Bearer ${accessToken}`),
      ).expect(406);

      expect(JSON.parse(response.body)).toEqual({
        message: 'No route found for the specified format yaml. Supported formats: hal_json, json, xml.',
      });
    });

    it.each(UNKNOWN_FORMATS)('refuses %p with 406', async (query, shown) => {
      const response = await read(nid, query).expect(406);

      expect(JSON.parse(response.body)).toEqual({
        message: `No route found for the specified format ${shown}. Supported formats: hal_json, json, xml.`,
      });
      expect(await countRecords()).toBe(1);
    });

    it.each(BRACKETED_FORMATS)('refuses %p with 406 naming the bracketed parameter', async (query, shown) => {
      const response = await read(nid, query).expect(406);

      expect(JSON.parse(response.body)).toEqual({ message: bracketedMessage(shown) });
    });

    it.each(REPEATED_FORMATS)('refuses %p with 406 saying _format is given more than once', async (query, shown) => {
      const response = await read(nid, query).expect(406);

      expect(JSON.parse(response.body)).toEqual({
        message: `_format is given more than once (${shown}): give one format. Supported formats: hal_json, json, xml.`,
      });
    });
  });
});
