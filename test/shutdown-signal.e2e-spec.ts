import { type ChildProcess, spawn } from 'node:child_process';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { connect, createServer } from 'node:net';
import { join } from 'node:path';
import { submissionStub } from './fixtures/submission.stub.js';
import { ingestCaller } from './utils/auth-fixtures.js';
import { type BuiltService, buildService } from './utils/built-service.js';
import { SENSOR_RECORD_URL } from './utils/sensor-record-api.js';
import { createTestApp, type TestApp } from './utils/test-app.js';
import { until } from './utils/until.js';

const freePort = () =>
  new Promise<number>((done) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });

const refused = (port: number) =>
  new Promise<boolean>((done) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), done(false)));
    socket.once('error', (error: NodeJS.ErrnoException) => done(error.code === 'ECONNREFUSED'));
  });

const readBody = (response: IncomingMessage) =>
  new Promise<string>((done) => {
    let text = '';
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => (text += chunk));
    response.on('end', () => done(text));
  });

/** The built service (`main.js`) as a real process, sent a real SIGTERM while submissions are in flight. */
describe('SIGTERM to the running service', () => {
  const saved = { ...process.env };
  let built: BuiltService;
  let helper: TestApp;
  let service: ChildProcess;
  let exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  let output = '';
  let port: number;

  beforeAll(async () => {
    built = await buildService();
    if (!process.env.DATABASE_URL?.startsWith('mysql://')) process.env.DATABASE_URL = `sqlite:${join(built.directory, 'records.sqlite')}`;
    // Tokens issued here must name the issuer the service expects, whatever port it gets.
    process.env.BASE_URL = 'http://sensors.test';
    helper = await createTestApp();
    await helper.reset();
    port = await freePort();
    service = spawn(process.execPath, [join(built.dist, 'main.js')], {
      env: { ...process.env, NODE_ENV: 'production', PORT: String(port), LOG_LEVEL: 'warn', METRICS_PORT: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    service.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    service.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    exited = new Promise((done) => service.once('exit', (code, signal) => done({ code, signal })));
    await until(async () => !(await refused(port)));
  }, 120_000);

  afterAll(async () => {
    if (service && service.exitCode === null && service.signalCode === null) service.kill('SIGKILL');
    await helper?.close();
    process.env = { ...saved };
    built?.remove();
  });

  it('finishes the submissions it has read, stops listening, and exits 0', async () => {
    const { accessToken } = await ingestCaller(helper.app);
    const body = Buffer.from(JSON.stringify(submissionStub.trapSprung));
    const submissions = Array.from({ length: 4 }, () => {
      const call = httpRequest({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: `${SENSOR_RECORD_URL}?_format=json`,
        // The service answers 100 Continue once it has read the request: then it is in flight.
        headers: {
          Authorization: `Bearer ${accessToken}`,
          'Content-Type': 'application/hal+json',
          'Content-Length': body.length,
          Expect: '100-continue',
        },
      });
      const continued = new Promise<void>((done) => call.once('continue', () => done()));
      const answered = new Promise<{ status?: number; body: string }>((done, fail) => {
        call.once('response', (response) => {
          readBody(response).then((text) => done({ status: response.statusCode, body: text }), fail);
        });
        call.once('error', fail);
      });
      call.flushHeaders();
      return { call, continued, answered };
    });
    await Promise.all(submissions.map(({ continued }) => continued));

    service.kill('SIGTERM');
    await until(() => refused(port));
    for (const { call } of submissions) call.end(body);
    const answers = await Promise.all(submissions.map(({ answered }) => answered));

    expect(await exited).toEqual({ code: 0, signal: null });
    expect(answers.map(({ status }) => status)).toEqual([201, 201, 201, 201]);
    const uuids = answers.map(({ body: text }) => (JSON.parse(text) as { uuid: [{ value: string }] }).uuid[0].value);
    const rows: Array<{ uuid: string }> = await helper.dataSource.query('SELECT uuid FROM sensor_report');
    expect(rows.map((row) => row.uuid).sort()).toEqual([...uuids].sort());
    expect(output).not.toMatch(/"level":50|Error/);
  }, 60_000);
});
