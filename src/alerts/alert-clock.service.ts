import { type BeforeApplicationShutdown, Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { RoundLoop } from '../common/process/round-loop.js';
import { CLOCK, type Clock } from '../common/time/clock.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { withLeaseIfFree } from '../database/lease.js';
import { runInTransaction } from '../database/run-in-transaction.js';
import { raiseSilent } from '../sensor/projection/silent-sensors.js';
import { MetricsService } from '../metrics/metrics.service.js';
import { AlertNotificationEntity } from './alert-notification.entity.js';
import { AlertOutbox } from './alert-outbox.js';
import { dueClockSteps, openEpisodeSteps } from './sprung-clock.js';

const LEASE = 'alert-clock';

/**
 * What the clock raises rather than a record (docs/alerts.md): `silent` for sensors that fell
 * overdue, and the steps of the sprung episodes' 24-hour clock. Every ALERT_CLOCK_INTERVAL seconds
 * (at most 60), on the one instance that holds the lease at that moment; the others skip the pass.
 */
@Injectable()
export class AlertClock implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('AlertClock');
  private readonly rounds = new RoundLoop(() => this.run(), {
    whileRunning: 'join',
    failed: (error) => this.logger.warn(`Could not check the alerts' clock: ${error instanceof Error ? error.message : String(error)}`),
  });

  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: AlertOutbox,
    private readonly metrics: MetricsService,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.rounds.start(this.config.alerts.clockIntervalSeconds * 1000);
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.rounds.stop();
  }

  private async run(): Promise<void> {
    await this.countPending().catch((error: unknown) =>
      this.logger.warn(`Could not count the pending notifications: ${error instanceof Error ? error.message : String(error)}`),
    );
    await withLeaseIfFree(this.dataSource, LEASE, async () => {
      const now = this.clock.now();
      await raiseSilent(this.dataSource, now, this.config.sensors.heartbeatGraceSeconds, this.outbox);
      const raised = await runInTransaction(this.dataSource, async (manager) => {
        const due = await openEpisodeSteps(manager, await dueClockSteps(manager, now));
        await this.outbox.add(manager, due);
        return due.length;
      });
      if (raised > 0) this.outbox.committed();
    });
  }

  /** The gauges of pending notifications, on every instance (one indexed read). */
  private async countPending(): Promise<void> {
    const row = await this.dataSource
      .getRepository(AlertNotificationEntity)
      .createQueryBuilder('n')
      .select('COUNT(*)', 'pending')
      .addSelect('MIN(n.created)', 'oldest')
      .where("n.status = 'pending'")
      .getRawOne<{ pending: number | string; oldest: Date | string | null }>();
    const oldest = row?.oldest ? (row.oldest instanceof Date ? row.oldest : new Date(`${row.oldest.replace(' ', 'T')}Z`)) : null;
    this.metrics.notificationsCounted(
      Number(row?.pending ?? 0),
      oldest ? Math.max(0, Math.floor((this.clock.now() - oldest.getTime()) / 1000)) : 0,
    );
  }
}
