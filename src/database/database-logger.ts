import type { LoggerService } from '@nestjs/common';
import type { Logger as TypeOrmLogger } from 'typeorm';

const CONTEXT = 'Database';

/**
 * TypeORM's messages in the service's own log format. A failed query is logged at debug, by its
 * message only: the error reaches the caller, whose answer (and the exception filter's log line)
 * says what it meant, and parameters may hold secrets (password and token hashes).
 */
export class DatabaseLogger implements TypeOrmLogger {
  constructor(private readonly logger: LoggerService) {}

  logQuery(): void {}

  logQueryError(error: string | Error): void {
    this.logger.debug?.(`Query failed: ${typeof error === 'string' ? error : error.message}`, CONTEXT);
  }

  logQuerySlow(time: number, query: string): void {
    this.logger.warn(`Slow query (${time} ms): ${query.slice(0, 200)}`, CONTEXT);
  }

  logSchemaBuild(message: string): void {
    // Only the migrations actually applied are worth an operator's attention.
    if (/ has been executed successfully\.$/.test(message)) this.logger.log(message, CONTEXT);
    else this.logger.debug?.(message, CONTEXT);
  }

  logMigration(message: string): void {
    this.logger.warn(message, CONTEXT);
  }

  log(level: 'log' | 'info' | 'warn', message: unknown): void {
    if (level === 'warn') this.logger.warn(String(message), CONTEXT);
    else this.logger.debug?.(String(message), CONTEXT);
  }
}

/** For the admin command line, whose stdout carries only its JSON line: TypeORM logs nothing (not even migrations). */
export const quietDatabaseLogger: TypeOrmLogger = {
  logQuery: () => undefined,
  logQueryError: () => undefined,
  logQuerySlow: () => undefined,
  logSchemaBuild: () => undefined,
  logMigration: () => undefined,
  log: () => undefined,
};
