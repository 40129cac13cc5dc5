import { jest } from '@jest/globals';
import type { DataSource } from 'typeorm';
import type { DatabaseConfig } from '../config/app-config.js';
import { connectWithRetries } from './connect-data-source.js';
import { DatabaseConnectionError } from './connection-failure.js';

const database: DatabaseConfig = {
  type: 'mysql',
  url: 'mysql://root@127.0.0.1:3306/records',
  migrationsRun: true,
  poolSize: 10,
  requestTimeoutMs: 3000,
};
const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:3306'), { code: 'ECONNREFUSED' });
const unknownDatabase = () => Object.assign(new Error("Unknown database 'records'"), { code: 'ER_BAD_DB_ERROR' });
const connected = {} as DataSource;

describe(connectWithRetries.name, () => {
  let waits: number[];
  let retries: string[];
  const policy = (count: number) => ({
    retries: count,
    onRetry: (message: string) => retries.push(message),
    wait: async (ms: number) => waits.push(ms),
  });

  beforeEach(() => {
    waits = [];
    retries = [];
  });

  it('retries a refused connection with doubling waits, and connects once the server answers', async () => {
    const attempts = [refused(), refused(), refused()];
    const connectOnce = jest.fn(async () => {
      const failure = attempts.shift();
      if (failure) throw failure;
      return connected;
    });

    await expect(connectWithRetries(database, policy(5), connectOnce)({ type: 'mysql' })).resolves.toBe(connected);

    expect(connectOnce).toHaveBeenCalledTimes(4);
    expect(waits).toEqual([1000, 2000, 4000]);
    expect(retries).toEqual(
      [1, 2, 3].map((retry) =>
        expect.stringMatching(new RegExp(`connection refused; .* Retrying in ${2 ** (retry - 1)} s \\(retry ${retry} of 5\\)\\.$`)),
      ),
    );
  });

  it('gives up after the last retry, in one line', async () => {
    const connect = connectWithRetries(database, policy(2), async () => Promise.reject(refused()));

    await expect(connect({ type: 'mysql' })).rejects.toThrow(
      new DatabaseConnectionError(
        'Cannot connect to the database at 127.0.0.1:3306: connection refused; check the host and port in DATABASE_URL and that MySQL/MariaDB is running. Gave up after 2 retries.',
        true,
      ),
    );
    expect(waits).toEqual([1000, 2000]);
  });

  it('does not retry what waiting cannot fix', async () => {
    const connectOnce = jest.fn(async () => Promise.reject(unknownDatabase()));

    await expect(connectWithRetries(database, policy(5), connectOnce)({ type: 'mysql' })).rejects.toThrow(
      /^Database "records" does not exist/,
    );
    expect(connectOnce).toHaveBeenCalledTimes(1);
    expect(retries).toEqual([]);
  });

  it('tries once without retries', async () => {
    const connectOnce = jest.fn(async () => Promise.reject(refused()));

    await expect(connectWithRetries(database, policy(0), connectOnce)({ type: 'mysql' })).rejects.toThrow(/is running\.$/);
    expect(connectOnce).toHaveBeenCalledTimes(1);
  });
});
