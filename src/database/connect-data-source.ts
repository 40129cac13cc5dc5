import { setTimeout as sleep } from 'node:timers/promises';
import type { DataSourceOptions } from 'typeorm';
import type { DatabaseConfig } from '../config/app-config.js';
import { describeConnectionFailure } from './connection-failure.js';
import type { Connect } from './initialize-data-source.js';
import { ServiceDataSource } from './service-data-source.js';

export interface ConnectRetries {
  /** Further attempts after the first, each after twice the previous wait (1 s, 2 s, 4 s, …). */
  retries: number;
  /** Told about each retry before waiting for it. */
  onRetry?: (message: string) => void;
  /** Waits `ms`; replaced in tests. */
  wait?: (ms: number) => Promise<unknown>;
}

const FIRST_RETRY_DELAY_MS = 1000;

/**
 * How the service and the admin command line open their database: a server that is not there yet
 * (connection refused or reset, as while it starts) is tried again with doubling waits; any other
 * failure, and the last one, is thrown as a DatabaseConnectionError whose one-line message says what
 * to do.
 */
export function connectWithRetries(
  database: DatabaseConfig,
  { retries, onRetry, wait = sleep }: ConnectRetries,
  connectOnce: Connect = (options) => new ServiceDataSource(options).initialize(),
): Connect {
  return async (options: DataSourceOptions) => {
    for (let retry = 1; ; retry++) {
      try {
        return await connectOnce(options);
      } catch (error) {
        const failure = describeConnectionFailure(error, database);
        if (!failure.retryable || retry > retries) {
          if (failure.retryable && retries > 0) failure.message += ` Gave up after ${retries} ${retries === 1 ? 'retry' : 'retries'}.`;
          throw failure;
        }
        const delay = FIRST_RETRY_DELAY_MS * 2 ** (retry - 1);
        onRetry?.(`${failure.message} Retrying in ${delay / 1000} s (retry ${retry} of ${retries}).`);
        await wait(delay);
      }
    }
  };
}
