import { Agent, request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { submissionStub } from './fixtures/submission.stub.js';
import { ingestCaller } from './utils/auth-fixtures.js';
import { assertBuilt, childEnvironment, scratchDirectory, ServiceProcess } from './utils/built-process.js';
import { SENSOR_RECORD_URL } from './utils/sensor-record-api.js';
import { createTestApp, type TestApp } from './utils/test-app.js';
import { until } from './utils/until.js';

const CLIENTS = 32;
/** Each run's SIGTERM comes once every client has had this many answers: several moments of the load. */
const SIGTERM_AFTER_ANSWERS = [1, 2, 3, 5, 8];

/** An HTTP answer, or the error the request met instead (its code: ECONNREFUSED, ECONNRESET, …). */
type Outcome = { status: number; uuid?: string } | { error: string };

/** One device on a keep-alive connection of its own, submitting one report after another. */
class LoadClient {
  readonly outcomes: Outcome[] = [];
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 1 });
  private readonly body: Buffer;

  constructor(
    private readonly port: number,
    private readonly accessToken: string,
    devId: string,
  ) {
    this.body = Buffer.from(JSON.stringify({ ...submissionStub.trapSprung, dev_id: devId }));
  }

  /** Submits until a request meets an error (a refused connection once the service stopped listening). */
  async run(): Promise<void> {
    for (;;) {
      const outcome = await this.submit();
      this.outcomes.push(outcome);
      if ('error' in outcome) break;
    }
    this.agent.destroy();
  }

  answers(): number {
    return this.outcomes.filter((outcome) => 'status' in outcome).length;
  }

  private submit(): Promise<Outcome> {
    return new Promise((resolve) => {
      const call = httpRequest({
        host: '127.0.0.1',
        port: this.port,
        method: 'POST',
        path: `${SENSOR_RECORD_URL}?_format=json`,
        agent: this.agent,
        headers: {
          Authorization: `Bearer ${this.accessToken}`,
          'Content-Type': 'application/hal+json',
          'Content-Length': this.body.length,
        },
      });
      call.once('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
      call.once('response', (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.once('aborted', () => resolve({ error: 'aborted' }));
        response.once('end', () => {
          const status = response.statusCode!;
          resolve(status === 201 ? { status, uuid: (JSON.parse(text) as { uuid: [{ value: string }] }).uuid[0].value } : { status });
        });
      });
      call.end(this.body);
    });
  }
}

/**
 * The built service as a real process, sent SIGTERM while 32 keep-alive clients submit as fast as
 * they are answered (docs/interface.md#operations-endpoints): a rolling deploy must lose no uplink, and a
 * network server that meets a reset cannot tell whether its request was stored.
 */
describe('SIGTERM while 32 keep-alive clients submit', () => {
  const workdir = scratchDirectory('sensor-records-drain-');
  const databaseUrl = process.env.DATABASE_URL?.startsWith('mysql://')
    ? process.env.DATABASE_URL
    : `sqlite:${join(workdir.path, 'records.sqlite')}`;
  const saved = { ...process.env };
  let helper: TestApp;
  let service: ServiceProcess | undefined;

  beforeAll(async () => {
    assertBuilt();
    process.env.DATABASE_URL = databaseUrl;
    // Tokens issued here must name the issuer the service expects.
    process.env.BASE_URL = 'http://sensors.test';
    helper = await createTestApp();
  });

  afterEach(async () => {
    await service?.stop();
    service = undefined;
  });

  afterAll(async () => {
    await helper?.close();
    process.env = { ...saved };
    workdir.remove();
  });

  it.each(SIGTERM_AFTER_ANSWERS)(
    'answers every request it reads and refuses the rest, never a reset; every 201 is a row (SIGTERM after %i answers each)',
    async (answersBeforeSignal) => {
      await helper.reset();
      const { accessToken } = await ingestCaller(helper.app);
      service = new ServiceProcess({
        cwd: workdir.path,
        env: childEnvironment({
          PORT: '0',
          DATABASE_URL: databaseUrl,
          BASE_URL: 'http://sensors.test',
          LOG_LEVEL: 'info',
          // A busy machine may be slow, never so slow that the answer becomes a 503.
          DB_REQUEST_TIMEOUT_MS: '60000',
        }),
      });
      const port = await service.serving();
      const clients = Array.from({ length: CLIENTS }, (_, index) => new LoadClient(port, accessToken, `drain-${index}`));
      const running = Promise.all(clients.map((client) => client.run()));

      // Each client stops at its first error: a client stopped before the signal ends the wait, and the
      // checks below name its error. A busy machine may take long to give every client its answers.
      await until(
        () => clients.map((client) => ({ answers: client.answers(), last: client.outcomes.at(-1) })),
        (seen) =>
          seen.every((client) => client.answers >= answersBeforeSignal) || seen.some(({ last }) => last !== undefined && 'error' in last),
        { withinMs: 150_000 },
      );
      service.child.kill('SIGTERM');
      await running;
      const exit = await service.exited;

      const outcomes = clients.flatMap((client) => client.outcomes);
      expect(outcomes.filter((outcome) => 'error' in outcome && outcome.error !== 'ECONNREFUSED')).toEqual([]);
      expect(outcomes.filter((outcome) => 'status' in outcome && outcome.status !== 201)).toEqual([]);
      expect(exit.code).toBe(0);
      const created = outcomes.flatMap((outcome) => ('uuid' in outcome && outcome.uuid ? [outcome.uuid] : []));
      const rows: Array<{ uuid: string }> = await helper.dataSource.query('SELECT uuid FROM sensor_report');
      expect(rows.map((row) => row.uuid).sort()).toEqual(created.sort());
      expect(service.lines.filter((line) => Number(line.level) >= 50)).toEqual([]);
    },
    180_000,
  );
});
