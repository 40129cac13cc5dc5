import { Validator } from '@seriousme/openapi-schema-validator';
import request from 'supertest';
import { createTestApp, TestApp } from './utils/test-app.js';

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

  it('lists every route the service serves', async () => {
    const response = await request(testApp.app.getHttpServer()).get('/api-docs-json').expect(200);
    const documented = Object.entries(response.body.paths as Record<string, Record<string, unknown>>).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    );

    expect(documented.sort()).toEqual(servedRoutes(testApp).sort());
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
  const stack = (testApp.app.getHttpAdapter().getInstance() as { router: { stack: Array<{ route?: { path: string; methods: Record<string, boolean> } }> } }).router.stack;
  const routes = stack
    .filter((layer) => layer.route && !layer.route.path.includes('*') && !layer.route.path.startsWith('/api-docs'))
    .flatMap((layer) => Object.keys(layer.route!.methods).map((method) => `${method.toUpperCase()} ${layer.route!.path.replace(/:(\w+)/g, '{$1}')}`));
  return [...new Set(routes)];
}
