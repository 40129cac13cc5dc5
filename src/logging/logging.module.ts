import { Global, Module } from '@nestjs/common';
import pino, { type DestinationStream } from 'pino';
import { APP_CONFIG, AppConfig } from '../config/app-config.js';
import { createServiceLog } from './service-log.js';
import { SERVICE_LOG, ServiceLogger } from './service-logger.js';

/** Where log lines go: standard output, or a capture stream in tests (override this provider). */
export const LOG_DESTINATION = Symbol('LOG_DESTINATION');

@Global()
@Module({
  providers: [
    { provide: LOG_DESTINATION, useFactory: () => pino.destination({ fd: 1, sync: false }) },
    {
      provide: SERVICE_LOG,
      inject: [APP_CONFIG, LOG_DESTINATION],
      useFactory: (config: AppConfig, destination: DestinationStream) => createServiceLog(config, destination),
    },
    ServiceLogger,
  ],
  exports: [SERVICE_LOG, ServiceLogger],
})
export class LoggingModule {}
