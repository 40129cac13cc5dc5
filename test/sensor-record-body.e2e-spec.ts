import request from 'supertest';
import { APP_CONFIG, type AppConfig } from '../src/config/app-config.js';
import { reportFrom, sensorReportStub } from './fixtures/sensor-report.stub.js';
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
        await submit(testApp.app, reportFrom(sensorReportStub.minimal), { token, contentType }).expect(201);
      },
    );

    it('answers 415 without one', async () => {
      await expectAnswer(415, 'No "Content-Type" request header specified', reportFrom(sensorReportStub.minimal), null);
    });

    it.each(['text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'application/json-patch+json'])(
      'answers 415 to %s',
      async (contentType) => {
        await expectAnswer(415, `No route found that matches "Content-Type: ${contentType}"`, reportFrom(sensorReportStub.minimal), contentType);
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

    it('reads a body that starts with a byte order mark', async () => {
      await submit(testApp.app, `\ufeff${JSON.stringify(sensorReportStub.minimal)}`, { token }).expect(201);
    });
  });

  describe('_links.type.href', () => {
    it('accepts the site type link', async () => {
      await submit(testApp.app, { ...reportFrom(sensorReportStub.minimal), _links: { type: { href: typeHref } } }, { token }).expect(201);
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
        `Type ${href} does not correspond to an entity on this site.`,
        { ...reportFrom(sensorReportStub.minimal), _links: { type: { href } } },
      );
    });

    it('names a type link that is not text as JSON', async () => {
      await expectAnswer(422, 'Type {"x":1} does not correspond to an entity on this site.', {
        ...reportFrom(sensorReportStub.minimal),
        _links: { type: { href: { x: 1 } } },
      });
    });

    it('checks the link before validating the members', async () => {
      await expectAnswer(422, 'Type http://elsewhere does not correspond to an entity on this site.', {
        _links: { type: { href: 'http://elsewhere' } },
      });
    });
  });

  describe('size', () => {
    it('answers 413 with a JSON message to a body over 64 KiB, and accepts one of exactly 64 KiB', async () => {
      const body = reportFrom(sensorReportStub.minimal);
      const base = JSON.stringify({ ...body, padding: '' }).length;
      const exactly = JSON.stringify({ ...body, padding: 'p'.repeat(65536 - base) });

      await submit(testApp.app, exactly, { token }).expect(201);
      await testApp.reset();
      await expectAnswer(413, 'Request body is larger than the 64 KiB limit.', `${exactly} `);
    });
  });

  it('answers 405 with Drupal\'s message to another method on the route', async () => {
    const response = await request(testApp.app.getHttpServer()).get(SENSOR_RECORD_URL).expect(405);

    expect(response.body).toEqual({
      message: 'No route found for "GET /api-sensor/iot/sensor-record": Method Not Allowed (Allow: POST)',
    });
  });
});
