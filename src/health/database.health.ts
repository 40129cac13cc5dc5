import { Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { DataSource } from 'typeorm';
import { isDatabaseTimeout } from '../common/errors/database-unavailable.js';
import { withDatabaseDeadline } from '../database/database-deadline.js';
import { galeraNotReadyReason } from './galera-state.js';

/**
 * Whether the database answers in time and, on a Galera cluster, whether the instance's node is in
 * step with the others. Terminus' own TypeORM indicator probes for its peer packages with a CommonJS
 * `require`, which an ES-module build cannot satisfy; the check itself is short, so it lives here.
 */
@Injectable()
export class DatabaseHealthIndicator {
  constructor(
    private readonly dataSource: DataSource,
    private readonly indicators: HealthIndicatorService,
  ) {}

  async pingCheck(key: string, timeoutMs: number) {
    const indicator = this.indicators.check(key);
    if (!this.dataSource.isInitialized) return indicator.down({ message: 'Not connected' });
    try {
      // The deadline ends the wait for a connection and the query itself; a connection stuck on the
      // query is destroyed rather than handed out again.
      const notReady = await withDatabaseDeadline(Date.now() + timeoutMs, () => this.probe());
      return notReady ? indicator.down({ message: notReady }) : indicator.up();
    } catch (error) {
      const timedOut = isDatabaseTimeout(error);
      return indicator.down({
        message: timedOut ? `No answer within ${timeoutMs} ms` : error instanceof Error ? error.message : String(error),
      });
    }
  }

  /** `SELECT 1` on SQLite; on MySQL a query that also says whether a Galera node is in step (galera-state.ts). */
  private async probe(): Promise<string | null> {
    if (this.dataSource.options.type !== 'mysql') {
      await this.dataSource.query('SELECT 1');
      return null;
    }
    return galeraNotReadyReason(this.dataSource.manager);
  }
}
