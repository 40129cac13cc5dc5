import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { submissionStub } from './fixtures/submission.stub.js';
import { ingestCaller } from './utils/auth-fixtures.js';
import { SENSOR_RECORD_URL } from './utils/sensor-record-api.js';
import { createTestApp, type TestApp } from './utils/test-app.js';
import { until } from './utils/until.js';

const connectionRefused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });

const readBody = (response: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = '';
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => (text += chunk));
    response.on('end', () => resolve(text));
  });

describe('Graceful shutdown', () => {
  const originalUrl = process.env.DATABASE_URL ?? 'sqlite::memory:';
  // The row is checked after the application has closed its pool, so an in-memory database will not do.
  const directory = mkdtempSync(join(tmpdir(), 'sensor-record-shutdown-'));
  let testApp: TestApp;

  beforeAll(() => {
    if (!originalUrl.startsWith('mysql://')) process.env.DATABASE_URL = `sqlite:${join(directory, 'records.sqlite')}`;
  });

  afterAll(() => {
    process.env.DATABASE_URL = originalUrl;
    rmSync(directory, { recursive: true, force: true });
  });

  it('stops accepting connections, finishes the submission in flight, then closes the database', async () => {
    testApp = await createTestApp();
    await testApp.reset();
    const { accessToken } = await ingestCaller(testApp.app);
    const options = testApp.dataSource.options;
    await testApp.app.listen(0, '127.0.0.1');
    const server = testApp.app.getHttpServer() as Server;
    const port = (server.address() as { port: number }).port;

    const body = Buffer.from(JSON.stringify(submissionStub.trapSprung));
    const agent = new Agent({ keepAlive: true });
    const received = new Promise<void>((resolve) => server.once('request', () => resolve()));
    const submission = httpRequest({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: `${SENSOR_RECORD_URL}?_format=json`,
      agent,
      headers: { Authorization: `Bearer ${accessToken}`, 'Content-Type': 'application/hal+json', 'Content-Length': body.length },
    });
    const answered = new Promise<IncomingMessage>((resolve, reject) => submission.once('response', resolve).once('error', reject));
    submission.write(body.subarray(0, 100));
    await received;

    let closed = false;
    const closing = testApp.app.close().then(() => (closed = true));
    while (server.listening) await new Promise((resolve) => setImmediate(resolve));

    expect(await connectionRefused(port)).toBe(true);
    expect(closed).toBe(false);

    submission.end(body.subarray(100));
    const response = await answered;
    const record = JSON.parse(await readBody(response));
    await closing;

    expect(response.statusCode).toBe(201);
    expect(closed).toBe(true);
    expect(testApp.dataSource.isInitialized).toBe(false);
    const reader = await new DataSource({ ...options, migrationsRun: false } as DataSourceOptions).initialize();
    try {
      const rows = await reader.query('SELECT uuid FROM sensor_report WHERE nid = ?', [record.nid[0].value]);
      expect(rows).toEqual([{ uuid: record.uuid[0].value }]);
    } finally {
      await reader.destroy();
      agent.destroy();
    }
  });

  it('tells keep-alive clients to close while draining, so their next request is refused rather than reset', async () => {
    const drained = await createTestApp();
    const { accessToken } = await ingestCaller(drained.app);
    await drained.app.listen(0, '127.0.0.1');
    const server = drained.app.getHttpServer() as Server;
    const port = (server.address() as { port: number }).port;
    const read = new Set<string>();
    server.prependListener('request', (request: IncomingMessage) => read.add(String(request.headers['x-test-id'])));
    const agent = new Agent({ keepAlive: true, maxSockets: 16 });
    const body = Buffer.from(JSON.stringify(submissionStub.trapSprung));

    type Outcome = { id: string; status?: number; connection?: string; error?: string };
    const send = (id: string, method: 'GET' | 'POST') => {
      const call = httpRequest({
        host: '127.0.0.1',
        port,
        method,
        path: method === 'POST' ? `${SENSOR_RECORD_URL}?_format=json` : '/health',
        agent,
        headers: {
          'X-Test-Id': id,
          ...(method === 'POST' && {
            Authorization: `Bearer ${accessToken}`,
            'Content-Type': 'application/hal+json',
            'Content-Length': body.length,
          }),
        },
      });
      const outcome = new Promise<Outcome>((resolve) => {
        call.once('response', (response) => {
          readBody(response).then(
            () => resolve({ id, status: response.statusCode, connection: response.headers.connection }),
            (error: Error) => resolve({ id, error: error.message }),
          );
        });
        call.once('error', (error: NodeJS.ErrnoException) => resolve({ id, error: error.code ?? error.message }));
      });
      return { call, outcome };
    };

    // 16 keep-alive clients, each with a submission the server has read and is still waiting to finish.
    const inFlight = Array.from({ length: 16 }, (_, index) => send(`in-flight-${index}`, 'POST'));
    for (const { call } of inFlight) call.write(body.subarray(0, 100));
    await until(() => inFlight.every((_, index) => read.has(`in-flight-${index}`)));

    const closing = drained.app.close();
    await until(() => !server.listening);
    for (const { call } of inFlight) call.end(body.subarray(100));
    const answers = await Promise.all(inFlight.map(({ outcome }) => outcome));
    const next = await Promise.all(
      Array.from({ length: 16 }, (_, index) => send(`next-${index}`, 'GET')).map(({ call, outcome }) => (call.end(), outcome)),
    );
    await closing;
    agent.destroy();

    expect(answers).toEqual(answers.map(({ id }) => ({ id, status: 201, connection: 'close' })));
    // Not ECONNRESET, which would leave a client unsure whether its request was read.
    expect(next).toEqual(next.map(({ id }) => ({ id, error: 'ECONNREFUSED' })));
    expect([...read].filter((id) => id.startsWith('next-'))).toEqual([]);
  });
});
