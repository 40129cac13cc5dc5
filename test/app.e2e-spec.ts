import request from 'supertest';
import { createTestApp, TestApp } from './utils/test-app.js';

describe('Routing errors', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });

  afterAll(async () => {
    await testApp.close();
  });

  it("answers an unknown route with 404 and Drupal's message", async () => {
    const response = await request(testApp.app.getHttpServer()).get('/no/such/route').expect(404);

    expect(response.body).toEqual({ message: 'No route found for "GET /no/such/route"' });
  });

  it('answers a known path with the wrong method with 405, naming the allowed methods, HEAD with GET', async () => {
    const response = await request(testApp.app.getHttpServer()).delete('/health').expect(405);

    expect(response.headers.allow).toBe('GET, HEAD');
    expect(response.body).toEqual({ message: 'No route found for "DELETE /health": Method Not Allowed (Allow: GET, HEAD)' });
    await request(testApp.app.getHttpServer()).head('/health').expect(200);
  });

  it('echoes a request id, generating one when none is sent', async () => {
    const sent = await request(testApp.app.getHttpServer()).get('/health').set('X-Request-Id', 'abc-123').expect(200);
    const generated = await request(testApp.app.getHttpServer()).get('/health').expect(200);

    expect(sent.headers['x-request-id']).toBe('abc-123');
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sends security headers on every response', async () => {
    const response = await request(testApp.app.getHttpServer()).get('/no/such/route').expect(404);

    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(response.headers['x-powered-by']).toBeUndefined();
  });
});
