import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CONNECT_REFUSED_MESSAGE } from '../src/common/http/client-errors.js';
import {
  EXPECTATION_FAILED_MESSAGE,
  HOST_REPEATED_MESSAGE,
  HOST_REQUIRED_MESSAGE,
  repeatedHeaderMessage,
} from '../src/common/http/request-target.js';
import { submissionStub } from './fixtures/submission.stub.js';
import { createClient, createUser, ingestCaller, TOKEN_PATH } from './utils/auth-fixtures.js';
import { rawExchange } from './utils/raw-response.js';
import { SENSOR_RECORD_URL, storedRows } from './utils/sensor-record-api.js';
import { createTestApp, type TestApp } from './utils/test-app.js';

const BODY_TIMEOUT_MS = 500;

/** What helmet puts on every answer the routes give. */
const SECURITY_HEADERS = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'strict-transport-security',
  'x-content-type-options',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];

/**
 * What Node's HTTP server answers before any route sees the request (docs/interface.md#errors): the
 * service's JSON error bodies, on a connection it then closes, and a body cut short waits at most
 * REQUEST_BODY_TIMEOUT_MS.
 */
describe('Requests the HTTP parser refuses', () => {
  let testApp: TestApp;
  let port: number;
  let token: string;
  const originalTimeout = process.env.REQUEST_BODY_TIMEOUT_MS;

  const submission = (body: string, contentLength = Buffer.byteLength(body)) =>
    `POST ${SENSOR_RECORD_URL}?_format=json HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}\r\n` +
    `Content-Type: application/json\r\nContent-Length: ${contentLength}\r\n\r\n${body}`;

  beforeAll(async () => {
    process.env.REQUEST_BODY_TIMEOUT_MS = String(BODY_TIMEOUT_MS);
    testApp = await createTestApp();
    await testApp.app.listen(0, '127.0.0.1');
    port = ((testApp.app.getHttpServer() as Server).address() as AddressInfo).port;
  });

  beforeEach(async () => {
    await testApp.reset();
    token = (await ingestCaller(testApp.app)).accessToken;
  });

  afterAll(async () => {
    await testApp.close();
    if (originalTimeout === undefined) delete process.env.REQUEST_BODY_TIMEOUT_MS;
    else process.env.REQUEST_BODY_TIMEOUT_MS = originalTimeout;
  });

  it('answers 408 with a JSON body when a body shorter than its Content-Length stops coming', async () => {
    const body = JSON.stringify(submissionStub.trapSprung);

    const answer = await rawExchange(port, submission(body.slice(0, 40), Buffer.byteLength(body)));

    expect(answer.status).toBe(408);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(answer.headers.connection).toBe('close');
    expect(JSON.parse(answer.body)).toEqual({ message: `The request was not received in full within ${BODY_TIMEOUT_MS} ms.` });
    expect(await storedRows(testApp.dataSource)).toHaveLength(0);
  });

  it('answers 400 "Request aborted" with a JSON body when the client half-closes mid-body', async () => {
    const body = JSON.stringify(submissionStub.trapSprung);

    const answer = await rawExchange(port, submission(body.slice(0, 40), Buffer.byteLength(body)), { halfClose: true });

    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(answer.headers.connection).toBe('close');
    expect(JSON.parse(answer.body)).toEqual({ message: 'Request aborted' });
    expect(await storedRows(testApp.dataSource)).toHaveLength(0);
  });

  it('answers a password grant whose client half-closes the connection once its request is sent', async () => {
    const client = await createClient(testApp.app);
    const user = await createUser(testApp.app);
    const form = new URLSearchParams({
      grant_type: 'password',
      client_id: client.clientId,
      client_secret: client.clientSecret,
      username: user.username,
      password: user.password,
    }).toString();
    const request =
      `POST ${TOKEN_PATH} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n` +
      `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${form.length}\r\n\r\n${form}`;

    const answer = await rawExchange(port, request, { halfClose: true });

    expect(answer.status).toBe(200);
    expect(answer.headers.connection).toBe('close');
    expect(JSON.parse(answer.body)).toMatchObject({ token_type: 'Bearer', access_token: expect.any(String) });
  });

  it('answers a submission whose client half-closes the connection once its request is sent, after storing it', async () => {
    const answer = await rawExchange(port, submission(JSON.stringify(submissionStub.trapSprung)), { halfClose: true });

    expect(answer.status).toBe(201);
    expect(await storedRows(testApp.dataSource)).toHaveLength(1);
  });

  it('answers 431 with a JSON body for headers over the limit', async () => {
    const answer = await rawExchange(port, `GET /health HTTP/1.1\r\nHost: localhost\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`);

    expect(answer.status).toBe(431);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(JSON.parse(answer.body)).toEqual({ message: 'The request header fields are too large.' });
  });

  it('sends the security headers of every other answer with each of these answers', async () => {
    const routed = await rawExchange(port, 'GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    const security = Object.fromEntries(SECURITY_HEADERS.map((name) => [name, routed.headers[name]]));
    expect(Object.values(security).every((value) => typeof value === 'string' && value !== '')).toBe(true);
    const body = JSON.stringify(submissionStub.trapSprung);

    const answers = [
      await rawExchange(port, submission(body.slice(0, 40), Buffer.byteLength(body))),
      await rawExchange(port, `GET /health HTTP/1.1\r\nHost: localhost\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`),
      await rawExchange(port, 'HELLO THERE\r\n\r\n'),
    ];

    expect(answers.map((answer) => answer.status)).toEqual([408, 431, 400]);
    for (const answer of answers) expect(answer.headers).toMatchObject(security);
  });

  it('answers 400 with a JSON body to a CONNECT: the service is no proxy', async () => {
    const answer = await rawExchange(port, 'CONNECT example.org:443 HTTP/1.1\r\nHost: example.org:443\r\n\r\n');

    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(JSON.parse(answer.body)).toEqual({ message: CONNECT_REFUSED_MESSAGE });
  });

  it('answers 400 with a JSON body and the security headers to an HTTP/1.1 request without Host, storing nothing', async () => {
    const routed = await rawExchange(port, 'GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    const security = Object.fromEntries(SECURITY_HEADERS.map((name) => [name, routed.headers[name]]));
    const body = JSON.stringify(submissionStub.trapSprung);

    const answers = [
      await rawExchange(port, 'GET /health HTTP/1.1\r\nConnection: close\r\n\r\n'),
      await rawExchange(port, submission(body).replace('Host: localhost\r\n', 'Connection: close\r\n')),
    ];

    for (const answer of answers) {
      expect([answer.status, answer.headers['content-type'], JSON.parse(answer.body)]).toEqual([
        400,
        'application/json; charset=utf-8',
        { message: HOST_REQUIRED_MESSAGE },
      ]);
      expect(answer.headers).toMatchObject(security);
    }
    expect(await storedRows(testApp.dataSource)).toHaveLength(0);
  });

  it('answers 400 with a JSON body and the security headers to a request with two Host headers, storing nothing', async () => {
    const routed = await rawExchange(port, 'GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    const security = Object.fromEntries(SECURITY_HEADERS.map((name) => [name, routed.headers[name]]));
    const body = JSON.stringify(submissionStub.trapSprung);

    const answers = [
      await rawExchange(port, 'GET /health HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n'),
      await rawExchange(
        port,
        submission(body).replace('Host: localhost\r\n', 'Host: localhost\r\nhost: localhost\r\nConnection: close\r\n'),
      ),
    ];

    for (const answer of answers) {
      expect([answer.status, answer.headers['content-type'], JSON.parse(answer.body)]).toEqual([
        400,
        'application/json; charset=utf-8',
        { message: HOST_REPEATED_MESSAGE },
      ]);
      expect(answer.headers).toMatchObject(security);
    }
    expect(await storedRows(testApp.dataSource)).toHaveLength(0);
  });

  // Each after the submission's own: Node would read the first, the one that is answered 201 alone.
  it.each([
    ['Content-Type', 'content-type: text/plain'],
    ['Authorization', 'authorization: Bearer another-token'],
  ] as const)('answers 400 with a JSON body to a submission with two %s headers, storing nothing', async (name, second) => {
    const body = JSON.stringify(submissionStub.trapSprung);
    const sent = submission(body).replace('Content-Length:', `${second}\r\nConnection: close\r\nContent-Length:`);

    const answer = await rawExchange(port, sent);

    expect([answer.status, answer.headers['content-type'], JSON.parse(answer.body)]).toEqual([
      400,
      'application/json; charset=utf-8',
      { message: repeatedHeaderMessage(name) },
    ]);
    expect(await storedRows(testApp.dataSource)).toHaveLength(0);
  });

  it('answers 417 with a JSON body and the security headers to an Expect other than 100-continue, storing nothing', async () => {
    const routed = await rawExchange(port, 'GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    const security = Object.fromEntries(SECURITY_HEADERS.map((name) => [name, routed.headers[name]]));
    const body = JSON.stringify(submissionStub.trapSprung);

    const answer = await rawExchange(
      port,
      submission(body).replace('Host: localhost\r\n', 'Host: localhost\r\nExpect: teapot\r\nConnection: close\r\n'),
    );

    expect([answer.status, answer.headers['content-type'], JSON.parse(answer.body)]).toEqual([
      417,
      'application/json; charset=utf-8',
      { message: EXPECTATION_FAILED_MESSAGE },
    ]);
    expect(answer.headers).toMatchObject(security);
    expect(await storedRows(testApp.dataSource)).toHaveLength(0);
  });

  it('serves an HTTP/1.0 request without Host, which needs none, and reads the path of an absolute-form target', async () => {
    const answers = [
      await rawExchange(port, 'GET /health HTTP/1.0\r\n\r\n'),
      await rawExchange(port, 'GET http://localhost/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n'),
    ];

    for (const answer of answers)
      expect([answer.status, JSON.parse(answer.body)]).toEqual([200, expect.objectContaining({ status: 'ok' })]);
  });

  it('answers 400 with a JSON body to a path whose percent-encoding does not decode', async () => {
    const answer = await rawExchange(port, 'GET /node/%ff HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');

    expect([answer.status, JSON.parse(answer.body)]).toEqual([400, { message: "Failed to decode param '%ff'" }]);
  });

  it('answers 400 with a JSON body for a request that is not HTTP', async () => {
    const answer = await rawExchange(port, 'HELLO THERE\r\n\r\n');

    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(answer.headers.connection).toBe('close');
    expect(JSON.parse(answer.body)).toEqual({ message: 'Bad request: the request is not valid HTTP/1.1.' });
  });
});
