import request from 'supertest';
import { submissionStub } from './fixtures/submission.stub.js';
import { ingestCaller } from './utils/auth-fixtures.js';
import { submit, submitBatch } from './utils/sensor-record-api.js';
import { createTestApp, type TestApp } from './utils/test-app.js';

/**
 * Helmet's headers with one change: the Content-Security-Policy has no `upgrade-insecure-requests`, since
 * devices and relays may reach the service over plain HTTP inside a private network.
 */
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors 'self';" +
    "img-src 'self' data:;object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self' https: 'unsafe-inline'",
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

describe('Security headers on every kind of answer', () => {
  let testApp: TestApp;
  let token: string;

  beforeAll(async () => {
    testApp = await createTestApp();
    token = (await ingestCaller(testApp.app)).accessToken;
  });

  afterAll(async () => {
    await testApp.close();
  });

  const server = () => testApp.app.getHttpServer();
  const answers: Array<[string, number, () => request.Test]> = [
    ['a probe', 200, () => request(server()).get('/health')],
    ['a record created, as json', 201, () => submit(testApp.app, submissionStub.minimal, { token, format: 'json' })],
    ['a record created, as xml', 201, () => submit(testApp.app, submissionStub.minimal, { token, format: 'xml' })],
    ['a batch stored', 201, () => submitBatch(testApp.app, [submissionStub.minimal], { token })],
    [
      'the CSV of the records feed',
      200,
      () => request(server()).get('/api-sensor/sensor-records?_format=csv').set('Authorization', `Bearer ${token}`),
    ],
    ['the metrics', 200, () => request(server()).get('/metrics')],
    ['the session token', 200, () => request(server()).get('/session/token')],
    ['an unknown route', 404, () => request(server()).get('/no/such/route')],
    ['a known path with another method', 405, () => request(server()).delete('/health')],
    ['a caller without a token', 403, () => submit(testApp.app, submissionStub.minimal, {})],
    ['an invalid submission', 406, () => submit(testApp.app, { ...submissionStub.minimal, dev_id: '' }, { token })],
    ['a body that is not JSON', 422, () => submit(testApp.app, '{', { token })],
    ['a token endpoint error', 400, () => request(server()).post('/api-sensor/oauth/token').type('form').send({ grant_type: 'magic' })],
    ['a path that does not decode', 400, () => request(server()).get('/node/%ff')],
  ];

  it.each(answers)('%s (%i)', async (_kind, status, send) => {
    const response = await send().expect(status);

    expect(response.headers).toMatchObject(SECURITY_HEADERS);
    expect(response.headers['x-powered-by']).toBeUndefined();
  });
});
