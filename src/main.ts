import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { AddressInfo } from 'node:net';
import { AppModule } from './app.module.js';
import { createApp } from './app.setup.js';
import { closeOnSignals } from './common/process/close-on-signals.js';
import { APP_CONFIG, AppConfig, ConfigError, loadConfig } from './config/app-config.js';
import { loadEnvFile } from './config/load-env-file.js';

/** The settings file read at start-up, named in a failure line: a bad DATABASE_URL may have come from it. */
let settingsFile: string | undefined;
/** Whether the environment set DATABASE_URL itself: then the failure line says so, not that the file did. */
let databaseUrlFromEnvironment = false;
/** The metrics' port of its own, to tell which setting names a port that is taken. */
let metricsPort: number | undefined;

async function bootstrap(): Promise<void> {
  try {
    databaseUrlFromEnvironment = process.env.DATABASE_URL !== undefined;
    settingsFile = loadEnvFile();
    metricsPort = loadConfig().metrics.port;
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  // Nest's start-up lines wait for the JSON logger; when start-up fails they are dropped with Nest's own
  // error report (a stack trace in another format), and the error reaches the catch below as one line.
  const app = await createApp((adapter, options) => NestFactory.create(AppModule, adapter, options), {
    autoFlushLogs: false,
    abortOnError: false,
  });
  app.flushLogs();
  const config = app.get<AppConfig>(APP_CONFIG);
  const logger = new Logger('Bootstrap');
  logger.log(
    settingsFile
      ? `Settings read from ${settingsFile} (variables set in the environment take precedence)`
      : `No .env file in ${process.cwd()}: settings come from the environment and the defaults`,
  );
  closeOnSignals(app);
  // Nest logs "Nest application successfully started" when initialised, before the port is bound: the
  // lines from here wait until listening succeeds, so a taken port leaves only the stderr line below.
  Logger.attachBuffer();
  await app.listen(config.port);
  app.flushLogs();
  // The port actually bound: PORT=0 asks the system for a free one.
  const { port } = app.getHttpServer().address() as AddressInfo;
  logger.log(`Serving on port ${port} (${config.database.type} database, base ${config.baseUrl})`);
}

/** What went wrong, in words that say what to change when they can. */
function failureReason(error: unknown): string {
  const { code, port } = (error ?? {}) as { code?: string; port?: number };
  if (code === 'EADDRINUSE' && port !== undefined) {
    const setting = port === metricsPort ? 'METRICS_PORT' : 'PORT';
    return `port ${port} is in use by another program. Stop it, or set ${setting} (in .env or the environment) to a free port.`;
  }
  return error instanceof Error ? error.message : String(error);
}

bootstrap().catch((error: unknown) => {
  const reason = failureReason(error);
  const environment = databaseUrlFromEnvironment ? '; DATABASE_URL from the environment' : '';
  const source = settingsFile ? ` (settings read from ${settingsFile}${environment})` : '';
  process.stderr.write(`Failed to start: ${reason}${source}\n`);
  process.exit(1);
});
