import { Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { DataSource } from 'typeorm';
import { withDatabaseDeadline } from '../database/database-deadline.js';

/**
 * Whether the database answers `SELECT 1` in time. Terminus' own TypeORM indicator probes for its
 * peer packages with a CommonJS `require`, which an ES-module build cannot satisfy; the check
 * itself is one line, so it lives here.
 */
@Injectable()
export class DatabaseHealthIndicator {
  constructor(
    private readonly dataSource: DataSource,
    private readonly indicators: HealthIndicatorService,
  ) {}

  async pingCheck(key: string, timeoutMs: number) {
    const indicator = this.indicators.check(key);
    let timer: NodeJS.Timeout | undefined;
    try {
      if (!this.dataSource.isInitialized) return indicator.down({ message: 'Not connected' });
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`No answer within ${timeoutMs} ms`)), timeoutMs);
      });
      // The deadline also ends the query itself, so a connection stuck on it is not handed out again.
      const ping = withDatabaseDeadline(Date.now() + timeoutMs, () => this.dataSource.query('SELECT 1'));
      await Promise.race([ping, timeout]);
      return indicator.up();
    } catch (error) {
      return indicator.down({ message: error instanceof Error ? error.message : String(error) });
    } finally {
      clearTimeout(timer);
    }
  }
}
