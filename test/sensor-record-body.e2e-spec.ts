import request from 'supertest';
import { APP_CONFIG, type AppConfig } from '../src/config/app-config.js';
import { submissionFrom, submissionStub } from './fixtures/submission.stub.js';
import { ingestCaller } from './utils/auth-fixtures.js';
import { SENSOR_RECORD_URL, storedRows, submit } from './utils/sensor-record-api.js';
import { createTestApp, type TestApp } from './utils/test-app.js';

describe('POST /api-sensor/iot/sensor-record (reading the body)', () => {
  let testApp: TestApp;
  let token: string;
  let typeHref: string;

  const expectAnswer = async (status: number, message: string, body: unknown, contentType?: string | null) => {
    const response = await submit(testApp.app, body, { token, contentType }).expect(status);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.body).toEqual({ message });
    expect(await storedRows(testApp.dataSource)).toHaveLength(0);
  };

  beforeAll(async () => {
    testApp = await createTestApp();
    typeHref = `${testApp.app.get<AppConfig>(APP_CONFIG).baseUrl}/rest/type/node/sensor_report`;
  });

  beforeEach(async () => {
    await testApp.reset();
    token = (await ingestCaller(testApp.app)).accessToken;
  });

  afterAll(async () => {
    await testApp.close();
  });

  describe('Content-Type', () => {
    it.each(['application/hal+json', 'application/json', 'application/json; charset=utf-8', 'Application/HAL+JSON;charset=UTF-8'])(
      'accepts %s',
      async (contentType) => {
        await submit(testApp.app, submissionFrom(submissionStub.minimal), { token, contentType }).expect(201);
      },
    );

    it('answers 415 without one', async () => {
      await expectAnswer(415, 'No "Content-Type" request header specified', submissionFrom(submissionStub.minimal), null);
    });

    it.each(['text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'application/json-patch+json'])(
      'answers 415 to %s',
      async (contentType) => {
        await expectAnswer(
          415,
          `No route found that matches "Content-Type: ${contentType}"`,
          submissionFrom(submissionStub.minimal),
          contentType,
        );
      },
    );
  });

  describe('JSON', () => {
    it.each(['{"dev_id": ', '', 'undefined', "{'dev_id': 'x'}", '{"a":1}}'])('answers 422 Syntax error to %j', async (text) => {
      await expectAnswer(422, 'Syntax error', text);
    });

    it.each(['[]', '[{"dev_id":"x"}]', '"report"', '42', 'null', 'true'])('answers 422 when the top level is %s', async (text) => {
      await expectAnswer(422, 'The request body must be a JSON object.', text);
    });

    it('reads a body that starts with a byte order mark, and stores the report without the mark', async () => {
      const text = JSON.stringify(submissionStub.minimal);

      const response = await submit(testApp.app, `\ufeff${text}`, { token, format: 'json' }).expect(201);

      expect(response.body.field_sensor_id).toEqual([{ value: submissionStub.minimal.dev_id }]);
      expect(await storedRows(testApp.dataSource)).toEqual([
        expect.objectContaining({ nid: response.body.nid[0].value, field_sensor_id: submissionStub.minimal.dev_id, request_body: text }),
      ]);
    });
  });

  describe('character encoding', () => {
    const minimalText = () => JSON.stringify(submissionStub.minimal);
    /** The minimal report with `bytes` spliced into its dev_id, so only the encoding is wrong. */
    const withBytesInDevId = (bytes: number[]) => {
      const [before, after] = minimalText().split(`"${submissionStub.minimal.dev_id}"`);
      return Buffer.concat([Buffer.from(`${before}"trap`), Buffer.from(bytes), Buffer.from(`"${after}`)]);
    };

    it.each([
      ['a lone continuation byte', [0x80]],
      ['Latin-1 é', [0xe9]],
      ['an overlong slash', [0xc0, 0xaf]],
      ['an encoded surrogate', [0xed, 0xa0, 0x80]],
      ['a truncated sequence', [0xe2, 0x82]],
      ['a code point beyond U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
    ])('answers 422 to a body with %s, storing nothing', async (_case, bytes) => {
      await expectAnswer(422, 'Malformed UTF-8 characters, possibly incorrectly encoded', withBytesInDevId(bytes));
    });

    it('stores UTF-8 text exactly as sent', async () => {
      const response = await submit(testApp.app, withBytesInDevId([0xc3, 0xa9, 0xf0, 0x9f, 0x90, 0x80]), { token, format: 'json' }).expect(
        201,
      );

      expect(response.body.field_sensor_id).toEqual([{ value: 'trapé🐀' }]);
    });

    it.each(['application/json; charset=iso-8859-1', 'application/hal+json;charset=latin1', 'application/json; charset="windows-1252"'])(
      'answers 415 to %s, storing nothing',
      async (contentType) => {
        const charset = /charset="?([^";]+)/.exec(contentType)![1];
        await expectAnswer(415, `The request body must be UTF-8 JSON; charset "${charset}" is not supported.`, minimalText(), contentType);
      },
    );

    it.each(['application/json; charset="UTF-8"', 'application/hal+json; charset=utf8'])('accepts %s', async (contentType) => {
      await submit(testApp.app, minimalText(), { token, contentType }).expect(201);
    });
  });

  describe('nesting', () => {
    const nested = (depth: number, innermost: unknown = 1): unknown => {
      let value = innermost;
      for (let level = 0; level < depth; level++) value = level % 2 === 0 ? [value] : { value };
      return value;
    };

    it.each([
      ['dev_id', (body: Record<string, unknown>) => void (body.dev_id = nested(2000))],
      ['metadata.gateways', (body: Record<string, unknown>) => void ((body.metadata as Record<string, unknown>).gateways = nested(2000))],
      [
        'payload_fields.field_event',
        (body: Record<string, unknown>) => void ((body.payload_fields as Record<string, unknown>).field_event = nested(2000)),
      ],
      ['an unknown member', (body: Record<string, unknown>) => void (body.extra = nested(2000))],
    ])('answers 422 to 2,000 levels inside %s, storing nothing', async (_member, nest) => {
      const body = submissionFrom(submissionStub.minimal);
      nest(body);

      await expectAnswer(422, 'The request body is nested deeper than 16 levels.', body);
    });

    it('accepts 16 levels and refuses 17', async () => {
      // The body is level 1 and `extra` holds the rest.
      await submit(testApp.app, { ...submissionFrom(submissionStub.minimal), extra: nested(15) }, { token }).expect(201);
      await testApp.reset();

      await expectAnswer(422, 'The request body is nested deeper than 16 levels.', {
        ...submissionFrom(submissionStub.minimal),
        extra: nested(16),
      });
    });

    it('refuses deep nesting even when the top level is not an object', async () => {
      await expectAnswer(422, 'The request body is nested deeper than 16 levels.', JSON.stringify(nested(17)));
    });
  });

  describe('_links.type.href', () => {
    it('accepts the site type link', async () => {
      await submit(testApp.app, { ...submissionFrom(submissionStub.minimal), _links: { type: { href: typeHref } } }, { token }).expect(201);
    });

    it.each([
      ['another scheme', (href: string) => (href.startsWith('https:') ? href.replace('https:', 'http:') : href.replace('http:', 'https:'))],
      ['another bundle', (href: string) => href.replace('sensor_report', 'article')],
      ['a trailing slash', (href: string) => `${href}/`],
      ['another site', () => 'https://example.com/rest/type/node/sensor_report'],
    ])('answers 422 to a link with %s', async (_case, change) => {
      const href = change(typeHref);
      await expectAnswer(
        422,
        `Type ${href} does not correspond to an entity on this site. The sensor_report type here is ${typeHref} (BASE_URL sets its address).`,
        {
          ...submissionFrom(submissionStub.minimal),
          _links: { type: { href } },
        },
      );
    });

    it('names a type link that is not text as JSON', async () => {
      await expectAnswer(
        422,
        `Type {"x":1} does not correspond to an entity on this site. The sensor_report type here is ${typeHref} (BASE_URL sets its address).`,
        {
          ...submissionFrom(submissionStub.minimal),
          _links: { type: { href: { x: 1 } } },
        },
      );
    });

    it.each([
      ['_links as text', 'x', '"x"'],
      ['_links as null', null, 'null'],
      ['a list for the type', { type: [{ href: 1 }] }, '[{"href":1}]'],
      ['a type without href', { type: {} }, '{}'],
    ])('answers 422 to %s, naming it as JSON', async (_case, links, named) => {
      await expectAnswer(
        422,
        `Type ${named} does not correspond to an entity on this site. The sensor_report type here is ${typeHref} (BASE_URL sets its address).`,
        { ...submissionFrom(submissionStub.minimal), _links: links },
      );
    });

    it('accepts _links without a type link', async () => {
      await submit(testApp.app, { ...submissionFrom(submissionStub.minimal), _links: {} }, { token }).expect(201);
    });

    it('checks the link before validating the members', async () => {
      await expectAnswer(
        422,
        `Type http://elsewhere does not correspond to an entity on this site. The sensor_report type here is ${typeHref} (BASE_URL sets its address).`,
        {
          _links: { type: { href: 'http://elsewhere' } },
        },
      );
    });
  });

  describe('size', () => {
    it('answers 413 with a JSON message to a body over 64 KiB, and accepts one of exactly 64 KiB', async () => {
      const body = submissionFrom(submissionStub.minimal);
      const base = JSON.stringify({ ...body, padding: '' }).length;
      const exactly = JSON.stringify({ ...body, padding: 'p'.repeat(65536 - base) });

      await submit(testApp.app, exactly, { token }).expect(201);
      await testApp.reset();
      await expectAnswer(413, 'Request body is larger than the 64 KiB limit.', `${exactly} `);
    });

    it.each([null, 'text/plain', 'application/json; charset=latin1'])(
      'answers 413 to a body over 64 KiB before looking at its Content-Type (%s)',
      async (contentType) => {
        const oversized = JSON.stringify({ ...submissionFrom(submissionStub.minimal), padding: 'p'.repeat(70_000) });

        await expectAnswer(413, 'Request body is larger than the 64 KiB limit.', oversized, contentType);
      },
    );
  });

  it("answers 405 with Drupal's message to another method on the route", async () => {
    const response = await request(testApp.app.getHttpServer()).get(SENSOR_RECORD_URL).expect(405);

    expect(response.body).toEqual({
      message: 'No route found for "GET /api-sensor/iot/sensor-record": Method Not Allowed (Allow: POST)',
    });
  });
});
