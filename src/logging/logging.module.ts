import { Global, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import pino, { type DestinationStream } from 'pino';
import { APP_CONFIG, AppConfig } from '../config/app-config.js';
import { httpLoggerOptions } from './http-logger-options.js';

/** Where log lines go: standard output, or a capture stream in tests (override this provider). */
export const LOG_DESTINATION = Symbol('LOG_DESTINATION');

@Global()
@Module({
  providers: [{ provide: LOG_DESTINATION, useFactory: () => pino.destination({ fd: 1, sync: false }) }],
  exports: [LOG_DESTINATION],
})
class LogDestinationModule {}

@Module({
  imports: [
    LogDestinationModule,
    LoggerModule.forRootAsync({
      inject: [APP_CONFIG, LOG_DESTINATION],
      useFactory: (config: AppConfig, destination: DestinationStream) => {
        const options = httpLoggerOptions(config);
        return { pinoHttp: options.transport ? options : [options, destination] };
      },
    }),
  ],
})
export class LoggingModule {}
