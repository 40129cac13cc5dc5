import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { sensorReportStub } from './fixtures/sensor-report.stub.js';
import { ingestCaller } from './utils/auth-fixtures.js';
import { SENSOR_RECORD_URL } from './utils/sensor-record-api.js';
import { createTestApp, type TestApp } from './utils/test-app.js';

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

    const body = Buffer.from(JSON.stringify(sensorReportStub.trapSprung));
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
});
