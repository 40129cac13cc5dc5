import { type BeforeApplicationShutdown, Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { RoundLoop } from '../common/process/round-loop.js';
import { CLOCK, type Clock } from '../common/time/clock.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { withLeaseIfFree } from '../database/lease.js';
import { MetricsService } from '../metrics/metrics.service.js';
import { RecordPurge } from './record-purge.js';

/** How often each instance checks: the oldest record's age, and (one instance at a time) the purge. */
const RETENTION_CHECK_EVERY_MS = 5 * 60 * 1000;
const FIRST_CHECK_AFTER_MS = 60 * 1000;
export const RETENTION_LEASE = 'retention';
const DAY_MS = 24 * 60 * 60 * 1000;

/** What one check did: null where that kind of retention is not configured or another instance held the lease. */
export interface RetentionRun {
  records: number | null;
  requestBodies: number | null;
}

/**
 * Applies RECORD_RETENTION_DAYS and REQUEST_BODY_RETENTION_DAYS (docs/operations.md#retention) every
 * five minutes: on the one instance that holds the lease `retention` at that moment (a row, so it holds
 * on a Galera cluster too), in small paced transactions. Every instance reads the oldest record's age
 * for its gauge. Stopped before the database pool closes on shutdown, the purge at its next batch.
 */
@Injectable()
export class RetentionService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Retention');
  private readonly purge: RecordPurge;
  private readonly stopping = new AbortController();
  private readonly rounds = new RoundLoop(() => this.run(), {
    whileRunning: 'join',
    failed: (error) => this.logger.warn(`Retention check failed: ${error instanceof Error ? error.message : String(error)}`),
  });

  constructor(
    private readonly dataSource: DataSource,
    private readonly metrics: MetricsService,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.purge = new RecordPurge(dataSource);
  }

  onApplicationBootstrap(): void {
    const { recordDays, requestBodyDays } = this.config.retention;
    if (!this.config.metrics.enabled && recordDays === undefined && requestBodyDays === undefined) return;
    // The first check a minute after start-up, out of the way of the start itself.
    this.rounds.start(RETENTION_CHECK_EVERY_MS, FIRST_CHECK_AFTER_MS);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping.abort();
    await this.rounds.stop();
  }

  /** One check now (or the one in progress); a failure is logged, and the next check tries again. */
  check(): Promise<RetentionRun> {
    return this.rounds.run();
  }

  private async run(): Promise<RetentionRun> {
    const now = this.clock.now();
    const { recordDays, requestBodyDays } = this.config.retention;
    let run: RetentionRun = { records: null, requestBodies: null };
    if (recordDays !== undefined || requestBodyDays !== undefined) {
      const held = await withLeaseIfFree(this.dataSource, RETENTION_LEASE, async (lease) => {
        const signal = AbortSignal.any([lease.signal, this.stopping.signal]);
        const records =
          recordDays === undefined
            ? null
            : await this.purge.deleteRecords(new Date(now - recordDays * DAY_MS), {
                signal,
                onBatch: (rows) => this.metrics.purged('records', rows),
              });
        const requestBodies =
          requestBodyDays === undefined
            ? null
            : await this.purge.emptyRequestBodies(new Date(now - requestBodyDays * DAY_MS), {
                signal,
                onBatch: (rows) => this.metrics.purged('request_bodies', rows),
              });
        return { records, requestBodies };
      });
      if (held.held) run = held.value;
      if (run.records || run.requestBodies) {
        this.logger.log(`Deleted ${run.records ?? 0} records, emptied the request bodies of ${run.requestBodies ?? 0}`);
      }
    }
    if (this.config.metrics.enabled) this.metrics.oldestRecordSeen(await this.purge.oldestCreated(), now);
    return run;
  }
}
