import { type INestApplication, Logger } from '@nestjs/common';

/**
 * On SIGTERM (or SIGINT) closes the application (the HTTP server stops accepting connections, the
 * requests in flight are answered, then the database pool is closed) and exits 0, logging when it
 * starts and when it is done. A second signal while closing changes nothing.
 */
export function closeOnSignals(app: INestApplication, signals: NodeJS.Signals[] = ['SIGTERM', 'SIGINT']): void {
  const logger = new Logger('Shutdown');
  let closing = false;
  const close = async (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    logger.log(`${signal} received: no longer accepting connections; finishing the requests in flight, then closing the database pool`);
    try {
      await app.close();
      logger.log('Stopped: every request in flight answered, database pool closed');
      process.exitCode = 0;
    } catch (error) {
      logger.error(`Stopped after a failed shutdown: ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = 1;
    }
    // pino flushes its buffered lines on exit.
    process.exit();
  };
  for (const signal of signals) process.on(signal, (received: NodeJS.Signals) => void close(received));
}
