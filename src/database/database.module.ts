import { Module } from '@nestjs/common';
import { TypeOrmModule, type TypeOrmModuleOptions } from '@nestjs/typeorm';
import { APP_CONFIG, AppConfig } from '../config/app-config.js';
import { connectWithRetries } from './connect-data-source.js';
import { buildDataSourceOptions } from './data-source-options.js';
import { ServiceLogger } from '../logging/service-logger.js';
import { DatabaseLogger } from './database-logger.js';
import { initializeDataSource } from './initialize-data-source.js';

/** Carries the retry policy from the options factory to the data source factory, which Nest calls with the options only. */
type DatabaseModuleOptions = TypeOrmModuleOptions & { connectRetries: Parameters<typeof connectWithRetries> };

@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [APP_CONFIG, ServiceLogger],
      useFactory: (config: AppConfig, logger: ServiceLogger): DatabaseModuleOptions => ({
        ...buildDataSourceOptions(config.database),
        logger: new DatabaseLogger(logger),
        // The retries are ours (connectWithRetries): one line per retry in the service's log format,
        // and no retry where waiting cannot help (an unknown database, bad credentials).
        retryAttempts: 0,
        toRetry: () => false,
        connectRetries: [
          config.database,
          { retries: config.databaseConnectRetries, onRetry: (message) => logger.warn(message, 'Database') },
        ],
      }),
      dataSourceFactory: async (options) => {
        if (!options) throw new Error('Database options are missing');
        const { connectRetries, ...dataSourceOptions } = options as DatabaseModuleOptions;
        return initializeDataSource(dataSourceOptions as Parameters<typeof initializeDataSource>[0], connectWithRetries(...connectRetries));
      },
    }),
  ],
})
export class DatabaseModule {}
