import { Validator } from '@seriousme/openapi-schema-validator';
import { readFileSync } from 'node:fs';
import request from 'supertest';
import { ingestCaller } from './utils/auth-fixtures.js';
import { createTestApp, TestApp } from './utils/test-app.js';

interface GetOperation {
  parameters?: Array<{ name: string; in: string }>;
  responses: Record<string, { content?: Record<string, { example?: { message?: string } }> }>;
}

describe('OpenAPI description', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('is a valid OpenAPI 3 document', async () => {
    const response = await request(testApp.app.getHttpServer()).get('/api-docs-json').expect(200);

    const result = await new Validator().validate(response.body);

    expect(response.body.openapi).toMatch(/^3\./);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  it("carries the package's version", async () => {
    const response = await request(testApp.app.getHttpServer()).get('/api-docs-json').expect(200);
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

    expect(response.body.info.version).toBe(version);
  });

  it('lists every route the service serves', async () => {
    const response = await request(testApp.app.getHttpServer()).get('/api-docs-json').expect(200);
    const documented = Object.entries(response.body.paths as Record<string, Record<string, unknown>>).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    );

    expect(documented.sort()).toEqual(servedRoutes(testApp).sort());
  });

  it('documents the record endpoint: request example, _format and every answer with an example body', async () => {
    const response = await request(testApp.app.getHttpServer()).get('/api-docs-json').expect(200);
    const create = response.body.paths['/api-sensor/iot/sensor-record'].post;

    expect(create.requestBody.content['application/hal+json'].examples.trapSprung.value.payload_fields.field_event).toEqual([
      { value: 'Sprung' },
    ]);
    expect(create.parameters).toContainEqual(expect.objectContaining({ name: '_format', in: 'query' }));
    expect(Object.keys(create.responses).sort()).toEqual(['201', '403', '406', '413', '415', '422', '503']);
    for (const code of ['403', '406', '413', '415', '422', '503']) {
      expect(create.responses[code].content['application/json'].example.message).toEqual(expect.any(String));
    }
    expect(create.responses['201'].content['application/json'].example.field_event).toEqual([{ value: 'Sprung' }]);
  });

  it('documents the batch endpoint: a list of reports with its limits, and every answer with an example body', async () => {
    const response = await request(testApp.app.getHttpServer()).get('/api-docs-json').expect(200);
    const batch = response.body.paths['/api-sensor/iot/sensor-records'].post;

    expect(batch.requestBody.content['application/json'].schema).toEqual({
      type: 'array',
      minItems: 1,
      maxItems: 1000,
      items: { $ref: '#/components/schemas/CreateSensorRecordDto' },
    });
    expect(batch.requestBody.content['application/hal+json'].examples.buffered.value).toHaveLength(2);
    expect(Object.keys(batch.responses).sort()).toEqual(['201', '403', '406', '413', '415', '422', '503']);
    for (const code of ['403', '406', '413', '415', '422', '503']) {
      expect(batch.responses[code].content['application/json'].example.message).toEqual(expect.any(String));
    }
    expect(batch.responses['201'].content['application/json'].example[0]).toEqual({
      nid: 42,
      uuid: expect.any(String),
      location: expect.stringMatching(/\/node\/42$/),
    });
    expect(Object.keys(response.body.components.schemas.CreatedRecordDto.properties)).toEqual(['nid', 'uuid', 'location']);
  });

  it('documents the token endpoint: form fields, both grants and the error bodies', async () => {
    const response = await request(testApp.app.getHttpServer()).get('/api-docs-json').expect(200);
    const token = response.body.paths['/api-sensor/oauth/token'].post;
    const form = token.requestBody.content['application/x-www-form-urlencoded'];

    expect(Object.keys(form.schema.properties)).toEqual([
      'grant_type',
      'client_id',
      'client_secret',
      'username',
      'password',
      'refresh_token',
      'scope',
    ]);
    expect(Object.keys(form.examples)).toEqual(['password', 'refresh']);
    expect(Object.keys(token.responses).sort()).toEqual(['200', '400', '401', '429', '503']);
    expect(token.responses['401'].content['application/json'].examples.invalid_client.value.error).toBe('invalid_client');
    expect(token.responses['503'].content['application/json'].examples.temporarily_unavailable.value.error).toBe('temporarily_unavailable');
  });

  it('documents _format and its 406 on every read route that negotiates a format, with the message the route answers', async () => {
    const { accessToken } = await ingestCaller(testApp.app);
    const paths = (await request(testApp.app.getHttpServer()).get('/api-docs-json').expect(200)).body.paths as Record<
      string,
      { get?: GetOperation }
    >;
    const reads = Object.entries(paths).filter(([, operations]) => operations.get !== undefined);

    for (const [path, { get }] of reads) {
      const documented = get!.parameters?.some((parameter) => parameter.name === '_format' && parameter.in === 'query') ?? false;
      const example = get!.responses['406']?.content?.['application/json']?.example?.message;
      // The documented example names an unknown format: the route must answer that very text for it.
      const unknown = /the specified format (\S+)\. /.exec(example ?? '')?.[1] ?? 'yaml';
      const answer = await request(testApp.app.getHttpServer())
        .get(`${path.replace(/\{\w+\}/g, '1')}?_format=${unknown}`)
        .set('Authorization', `Bearer ${accessToken}`);

      expect({ path, documented, '406': example !== undefined }).toEqual({
        path,
        documented: answer.status === 406,
        '406': answer.status === 406,
      });
      if (documented) expect({ path, message: answer.body.message }).toEqual({ path, message: example });
    }
  });

  it('serves a browsable page', async () => {
    const response = await request(testApp.app.getHttpServer()).get('/api-docs').expect(200);

    expect(response.text).toContain('swagger-ui');
  });
});

/**
 * Endpoints Express routes to, in OpenAPI's path notation; the docs' own pages excluded. Route-scoped
 * middleware (body parsers) registers the same method and path again, hence the Set.
 */
function servedRoutes(testApp: TestApp): string[] {
  const stack = (
    testApp.app.getHttpAdapter().getInstance() as {
      router: { stack: Array<{ route?: { path: string; methods: Record<string, boolean> } }> };
    }
  ).router.stack;
  const routes = stack
    .filter((layer) => layer.route && !layer.route.path.includes('*') && !layer.route.path.startsWith('/api-docs'))
    .flatMap((layer) =>
      Object.keys(layer.route!.methods).map((method) => `${method.toUpperCase()} ${layer.route!.path.replace(/:(\w+)/g, '{$1}')}`),
    );
  return [...new Set(routes)];
}
