import { createServer } from 'node:net';
import request from 'supertest';
import { EXPECTATION_FAILED_MESSAGE, HOST_REPEATED_MESSAGE, HOST_REQUIRED_MESSAGE } from '../src/common/http/request-target.js';
import { SECURITY_HEADER_OPTIONS, securityHeaderFields } from '../src/common/http/security-headers.js';
import { submissionStub } from './fixtures/submission.stub.js';
import { ingestCaller } from './utils/auth-fixtures.js';
import { rawExchange, type RawAnswer } from './utils/raw-response.js';
import { createTestApp, TestApp } from './utils/test-app.js';

describe('Prometheus metrics', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('serves the Prometheus text format with request counts by route and status', async () => {
    await request(testApp.app.getHttpServer()).get('/health').expect(200);
    await request(testApp.app.getHttpServer()).get('/nowhere').expect(404);

    const response = await request(testApp.app.getHttpServer()).get('/metrics').expect(200);

    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.text).toMatch(/^http_requests_total\{method="GET",route="\/health",status="200"\} 1$/m);
    expect(response.text).toMatch(/^http_requests_total\{method="GET",route="unmatched",status="404"\} 1$/m);
    expect(response.text).toMatch(/^http_request_duration_seconds_count\{method="GET",route="\/health",status="200"\} 1$/m);
    // One observation of `sum` seconds: each bucket holds it exactly when its bound is at least that.
    const labels = 'method="GET",route="/health",status="200"';
    const sum = Number(new RegExp(`^http_request_duration_seconds_sum\\{${labels}\\} (\\S+)$`, 'm').exec(response.text)?.[1]);
    const buckets = [
      ...response.text.matchAll(new RegExp(`^http_request_duration_seconds_bucket\\{le="([^"]+)",${labels}\\} (\\d+)$`, 'gm')),
    ];
    expect(sum).toBeGreaterThan(0);
    expect(buckets.map(([, bound]) => bound)).toEqual(['0.005', '0.01', '0.025', '0.05', '0.1', '0.25', '0.5', '1', '2.5', '5', '+Inf']);
    for (const [, bound, count] of buckets)
      expect([bound, Number(count)]).toEqual([bound, sum <= (bound === '+Inf' ? Infinity : Number(bound)) ? 1 : 0]);
    const max = process.env.DATABASE_URL?.startsWith('mysql://') ? 10 : 1;
    expect(response.text).toMatch(new RegExp(`^db_pool_connections\\{state="max"\\} ${max}$`, 'm'));
  });

  it('counts records created by event and token grants by type and outcome', async () => {
    const caller = await ingestCaller(testApp.app);
    await request(testApp.app.getHttpServer())
      .post('/api-sensor/iot/sensor-record')
      .set('Authorization', `Bearer ${caller.accessToken}`)
      .set('Content-Type', 'application/hal+json')
      .send(JSON.stringify(submissionStub.trapSprung))
      .expect(201);
    await request(testApp.app.getHttpServer()).post('/api-sensor/oauth/token').type('form').send({ grant_type: 'magic' }).expect(400);

    const response = await request(testApp.app.getHttpServer()).get('/metrics').expect(200);

    expect(response.text).toMatch(/^sensor_records_created_total\{event="Sprung"\} 1$/m);
    expect(response.text).toMatch(/^oauth_token_grants_total\{grant_type="password",outcome="success"\} 1$/m);
    expect(response.text).toMatch(/^oauth_token_grants_total\{grant_type="other",outcome="unsupported_grant_type"\} 1$/m);
    expect(response.text).toMatch(/^http_requests_total\{method="POST",route="\/api-sensor\/iot\/sensor-record",status="201"\} 1$/m);
  });

  it('lists GET /metrics in the description of the service port that serves it', async () => {
    const description = await request(testApp.app.getHttpServer()).get('/api-docs-json').expect(200);

    expect(Object.keys(description.body.paths)).toContain('/metrics');
  });
});

/** A port nothing listens on now (the service has no way to listen on port 0 for its metrics). */
const freePort = () =>
  new Promise<number>((done) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });

describe('Prometheus metrics, configured away', () => {
  const saved = { ...process.env };

  afterEach(() => {
    process.env = { ...saved };
  });

  it('is absent when switched off', async () => {
    process.env.METRICS_ENABLED = 'false';
    const testApp = await createTestApp();

    const response = await request(testApp.app.getHttpServer()).get('/metrics').expect(404);

    expect(response.body).toEqual({ message: 'No route found for "GET /metrics"' });
    const description = await request(testApp.app.getHttpServer()).get('/api-docs-json').expect(200);
    expect(Object.keys(description.body.paths)).not.toContain('/metrics');
    await testApp.close();
  });

  it('listens on the loopback address only when METRICS_PORT is set without METRICS_HOST', async () => {
    const port = await freePort();
    process.env.METRICS_PORT = String(port);
    const testApp = await createTestApp();

    // 127.0.0.2 is the loopback interface too, but not the address 127.0.0.1 the port is bound to.
    expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(200);
    await expect(fetch(`http://127.0.0.2:${port}/metrics`)).rejects.toMatchObject({ cause: { code: 'ECONNREFUSED' } });
    await testApp.close();
  });

  it('listens on the address METRICS_HOST names', async () => {
    const port = await freePort();
    process.env.METRICS_PORT = String(port);
    process.env.METRICS_HOST = '127.0.0.2';
    const testApp = await createTestApp();

    expect((await fetch(`http://127.0.0.2:${port}/metrics`)).status).toBe(200);
    await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toMatchObject({ cause: { code: 'ECONNREFUSED' } });
    await testApp.close();
  });

  it.each([
    ['on the service port', () => undefined],
    ['on METRICS_PORT', async () => (process.env.METRICS_PORT = String(await freePort()))],
  ])('asks for the bearer token METRICS_TOKEN names, %s', async (_where, configure) => {
    process.env.METRICS_TOKEN = 'scrape-secret-0123456789';
    await configure();
    const testApp = await createTestApp();
    await testApp.app.listen(0, '127.0.0.1');
    const port = process.env.METRICS_PORT ?? String((testApp.app.getHttpServer().address() as { port: number }).port);
    const scrape = (authorization?: string) =>
      fetch(`http://127.0.0.1:${port}/metrics`, { headers: authorization ? { Authorization: authorization } : {} });

    for (const authorization of [undefined, 'Bearer wrong-secret-0123456789', 'Basic c2NyYXBlLXNlY3JldC0wMTIzNDU2Nzg5']) {
      const refused = await scrape(authorization);
      expect([authorization, refused.status, refused.headers.get('www-authenticate'), await refused.json()]).toEqual([
        authorization,
        401,
        'Bearer realm="metrics"',
        { message: 'The metrics need the bearer token METRICS_TOKEN names: Authorization: Bearer <METRICS_TOKEN>.' },
      ]);
    }
    const allowed = await scrape('Bearer scrape-secret-0123456789');
    expect(allowed.status).toBe(200);
    expect(await allowed.text()).toContain('# TYPE http_requests_total counter');
    await testApp.close();
  });

  it('answers on METRICS_PORT as the service port does: its security headers, HEAD, 405 with Allow, JSON errors', async () => {
    const port = await freePort();
    process.env.METRICS_PORT = String(port);
    const testApp = await createTestApp();
    const at = (path: string, method = 'GET') => fetch(`http://127.0.0.1:${port}${path}`, { method });
    const servicePort = await request(testApp.app.getHttpServer()).get('/health').expect(200);
    const securityHeadersOf = (headers: (name: string) => string | null | undefined) =>
      securityHeaderFields(SECURITY_HEADER_OPTIONS).map(([name]) => [name.toLowerCase(), headers(name.toLowerCase())]);

    const scrape = await at('/metrics');
    const head = await at('/metrics', 'HEAD');
    const post = await at('/metrics', 'POST');
    const elsewhere = await at('/health');

    expect(securityHeadersOf((name) => servicePort.headers[name] as string | undefined).every(([, value]) => value)).toBe(true);
    for (const answer of [scrape, head, post, elsewhere]) {
      expect(securityHeadersOf((name) => answer.headers.get(name))).toEqual(
        securityHeadersOf((name) => servicePort.headers[name] as string),
      );
    }
    expect([scrape.status, head.status, head.headers.get('content-type'), await head.text()]).toEqual([
      200,
      200,
      scrape.headers.get('content-type'),
      '',
    ]);
    expect([post.status, post.headers.get('allow'), post.headers.get('content-type'), await post.json()]).toEqual([
      405,
      'GET, HEAD',
      'application/json',
      { message: 'No route found for "POST /metrics": Method Not Allowed (Allow: GET, HEAD)' },
    ]);
    expect([elsewhere.status, elsewhere.headers.get('content-type'), await elsewhere.json()]).toEqual([
      404,
      'application/json',
      { message: 'No route found for "GET /health"' },
    ]);
    await testApp.close();
  });

  it('answers on METRICS_PORT as the service port does a request without Host or with two, a path that does not decode and an unmet Expect, and reads an absolute-form target', async () => {
    const port = await freePort();
    process.env.METRICS_PORT = String(port);
    const testApp = await createTestApp();
    await testApp.app.listen(0, '127.0.0.1');
    const servicePort = (testApp.app.getHttpServer().address() as { port: number }).port;
    const seen = (answer: RawAnswer) => [
      answer.status,
      JSON.parse(answer.body) as unknown,
      ...securityHeaderFields(SECURITY_HEADER_OPTIONS).map(([name]) => answer.headers[name.toLowerCase()]),
    ];

    for (const [text, status, message] of [
      ['GET /metrics HTTP/1.1\r\nConnection: close\r\n\r\n', 400, HOST_REQUIRED_MESSAGE],
      ['GET /metrics HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n', 400, HOST_REPEATED_MESSAGE],
      ['GET /metrics/%ff HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n', 400, "Failed to decode param '%ff'"],
      ['GET /metrics HTTP/1.1\r\nHost: localhost\r\nExpect: teapot\r\nConnection: close\r\n\r\n', 417, EXPECTATION_FAILED_MESSAGE],
    ] as const) {
      const onMetricsPort = await rawExchange(port, text);
      expect(seen(onMetricsPort)).toEqual(seen(await rawExchange(servicePort, text)));
      expect([onMetricsPort.status, onMetricsPort.headers['content-type'], JSON.parse(onMetricsPort.body)]).toEqual([
        status,
        'application/json',
        { message },
      ]);
    }
    const absolute = await rawExchange(
      port,
      `GET http://127.0.0.1:${port}/metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
    );
    expect(absolute.status).toBe(200);
    expect(absolute.body).toContain('# TYPE http_requests_total counter');
    await testApp.close();
  });

  it('moves to a port of its own when METRICS_PORT is set', async () => {
    const port = await freePort();
    process.env.METRICS_PORT = String(port);
    const testApp = await createTestApp();

    await request(testApp.app.getHttpServer()).get('/metrics').expect(404);
    const scrape = await fetch(`http://127.0.0.1:${port}/metrics`);
    const description = await request(testApp.app.getHttpServer()).get('/api-docs-json').expect(200);

    expect(scrape.status).toBe(200);
    expect(await scrape.text()).toContain('# TYPE http_requests_total counter');
    // The service port's description lists only what it serves.
    expect(Object.keys(description.body.paths)).not.toContain('/metrics');
    expect(Object.keys(description.body.paths)).toContain('/health');
    await testApp.close();
  });
});
