import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_CONFIG, AppConfig } from '../config/app-config.js';
import { buildDataSourceOptions } from './data-source-options.js';
import { initializeDataSource } from './initialize-data-source.js';

@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        ...buildDataSourceOptions(config.database),
        retryAttempts: config.environment === 'test' ? 0 : 5,
        retryDelay: 2000,
      }),
      dataSourceFactory: async (options) => {
        if (!options) throw new Error('Database options are missing');
        return initializeDataSource(options);
      },
    }),
  ],
})
export class DatabaseModule {}
