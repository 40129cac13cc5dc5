import { existsSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { assertBuilt, childEnvironment, scratchDirectory, ServiceProcess } from './utils/built-process.js';

/** Nest's own start-up line, which must appear only once the port is bound. */
const NEST_STARTED = 'Nest application successfully started';

/** `node dist/main.js` as an operator starts it, on an SQLite file in a working directory of its own. */
describe('The service as a process', () => {
  let workdir: ReturnType<typeof scratchDirectory>;
  let service: ServiceProcess | undefined;

  beforeAll(() => assertBuilt());

  beforeEach(() => {
    workdir = scratchDirectory('sensor-records-service-');
  });

  afterEach(async () => {
    await service?.stop();
    service = undefined;
    workdir.remove();
  });

  it('reads .env in its working directory, the environment winning, and says which file it read', async () => {
    writeFileSync(
      join(workdir.path, '.env'),
      ['PORT=0', 'DATABASE_URL=sqlite:./from-env-file.sqlite', 'BASE_URL=http://from-env-file.example', 'LOG_LEVEL=info'].join('\n'),
    );

    service = new ServiceProcess({ cwd: workdir.path, env: childEnvironment({ BASE_URL: 'http://from-environment.example' }) });
    const port = await service.serving();

    expect(service.messages()).toContain(
      `Settings read from ${join(workdir.path, '.env')} (variables set in the environment take precedence)`,
    );
    expect(service.messages()).toContain(`Serving on port ${port} (sqlite database, base http://from-environment.example)`);
    expect(service.messages()).toContain(NEST_STARTED);
    expect(existsSync(join(workdir.path, 'from-env-file.sqlite'))).toBe(true);
    const health = await fetch(`http://127.0.0.1:${port}/health`);
    expect(await health.json()).toEqual({ status: 'ok', version: expect.any(String) });
  });

  it('names PORT when its port is taken by another program, and exits 1', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      service = new ServiceProcess({
        cwd: workdir.path,
        env: childEnvironment({ PORT: String(port), DATABASE_URL: 'sqlite:./records.sqlite', LOG_LEVEL: 'info' }),
      });
      const result = await service.exited;

      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        `Failed to start: port ${port} is in use by another program. Stop it, or set PORT (in .env or the environment) to a free port.\n`,
      );
      expect(service.messages()).not.toContain(NEST_STARTED);
    } finally {
      taken.close();
    }
  });

  it('says so when there is no .env', async () => {
    service = new ServiceProcess({
      cwd: workdir.path,
      env: childEnvironment({ PORT: '0', DATABASE_URL: 'sqlite:./records.sqlite', LOG_LEVEL: 'info' }),
    });
    await service.serving();

    expect(service.messages()).toContain(`No .env file in ${workdir.path}: settings come from the environment and the defaults`);
  });

  it('logs the drain and the stop on SIGTERM, in the log format of every other line, and exits 0', async () => {
    service = new ServiceProcess({
      cwd: workdir.path,
      env: childEnvironment({ PORT: '0', DATABASE_URL: 'sqlite:./records.sqlite', LOG_LEVEL: 'info' }),
    });
    await service.serving();

    const result = await service.stop('SIGTERM');

    expect(result).toMatchObject({ code: 0, signal: null, stderr: '' });
    expect(service.lines.filter((line) => 'notJson' in line)).toEqual([]);
    expect(service.lines.slice(-2)).toEqual([
      expect.objectContaining({
        level: 30,
        context: 'Shutdown',
        msg: 'SIGTERM received: no longer accepting connections; finishing the requests in flight, then closing the database pool',
      }),
      expect.objectContaining({ level: 30, context: 'Shutdown', msg: 'Stopped: every request in flight answered, database pool closed' }),
    ]);
  });
});
