import type { AppConfig } from '../config/app-config.js';
import { withDatabaseBudget } from '../database/database-deadline.js';
import { createServiceLog } from './service-log.js';
import { ServiceLogger } from './service-logger.js';

describe(ServiceLogger.name, () => {
  let written: string[];
  let sut: ServiceLogger;

  beforeEach(() => {
    written = [];
    const config = { logLevel: 'debug', environment: 'test' } as AppConfig;
    sut = new ServiceLogger(createServiceLog(config, { write: (line: string) => written.push(line) }));
  });

  // Each line's time, process id and host name aside.
  const lines = () =>
    written.map((line) => {
      const { time, pid, hostname, ...rest } = JSON.parse(line) as Record<string, unknown>;
      expect([typeof time, typeof pid, typeof hostname]).toEqual(['number', 'number', 'string']);
      return rest;
    });

  it("writes Nest's message and context as a line at the matching level", () => {
    sut.log('Serving on port 3000', 'Bootstrap');
    sut.warn('Slow query', 'Database');
    sut.verbose('not at this level', 'Database');

    expect(lines()).toEqual([
      { level: 30, context: 'Bootstrap', msg: 'Serving on port 3000' },
      { level: 40, context: 'Database', msg: 'Slow query' },
    ]);
  });

  it('names the request being handled, and no request outside one', () => {
    withDatabaseBudget(1000, () => sut.debug('POST /node -> 406 request_id=trap-42: Not acceptable', 'HttpErrors'), 'trap-42');
    sut.debug('after it', 'HttpErrors');

    expect(lines()).toEqual([
      { level: 20, request_id: 'trap-42', context: 'HttpErrors', msg: 'POST /node -> 406 request_id=trap-42: Not acceptable' },
      { level: 20, context: 'HttpErrors', msg: 'after it' },
    ]);
  });

  it("keeps an error's message, not its stack, also where Nest's exception handler passes the stack apart", () => {
    sut.error(new TypeError('bad value'), 'Retention');
    sut.error('Unhandled', 'Error: Unhandled\n    at main (main.js:1:1)', 'ExceptionsHandler');

    expect(lines()).toEqual([
      { level: 50, context: 'Retention', err: { message: 'bad value' }, msg: 'bad value' },
      { level: 50, context: 'ExceptionsHandler', err: { message: 'Unhandled' }, msg: 'Unhandled' },
    ]);
  });
});
