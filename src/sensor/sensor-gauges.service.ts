import { type BeforeApplicationShutdown, Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CLOCK, type Clock } from '../common/time/clock.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { withDatabaseBudget } from '../database/database-deadline.js';
import { MetricsService, type SensorCounts } from '../metrics/metrics.service.js';
import { SensorEntity } from './sensor.entity.js';
import { overdueCutoff } from './sensor-state.js';

interface CountRow {
  ok: number | string;
  overdue: number | string;
  no_heartbeat: number | string;
  expired: number | string;
  sprung: number | string;
  oldest_due: Date | string | null;
}

/**
 * Counts the sensors per state for the Prometheus gauges (docs/interface.md#metrics-of-sensors): at
 * start-up, then every SENSOR_METRICS_INTERVAL seconds, so that an overdue heartbeat shows within a
 * minute whether or not anyone reads a sensor route. Every instance counts for itself: the count is
 * one read-only scan of a covering index, so several instances doing it cost little and agree.
 * Stopped before the database pool closes on shutdown, waiting for a count in progress.
 */
@Injectable()
export class SensorGaugesService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('SensorGauges');
  private timer?: NodeJS.Timeout;
  private counting?: Promise<void>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly metrics: MetricsService,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.metrics.enabled) return;
    void this.refresh();
    this.timer = setInterval(() => void this.refresh(), this.config.sensors.metricsIntervalSeconds * 1000);
    // Never the reason the process stays up.
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.counting;
  }

  /** Counts now (or joins the count in progress); a failure is logged and the gauges keep their values. */
  refresh(): Promise<void> {
    this.counting ??= this.count().finally(() => (this.counting = undefined));
    return this.counting;
  }

  private async count(): Promise<void> {
    const now = this.clock.now();
    try {
      const counts = await withDatabaseBudget(this.config.database.requestTimeoutMs, () => this.read(now));
      this.metrics.sensorsCounted(counts, now);
    } catch (error) {
      this.logger.warn(`Could not count the sensors: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private async read(now: number): Promise<SensorCounts> {
    const graceMs = this.config.sensors.heartbeatGraceSeconds * 1000;
    const cutoff = overdueCutoff(now, this.config.sensors.heartbeatGraceSeconds);
    const row = await this.dataSource
      .createQueryBuilder()
      .select('COUNT(CASE WHEN s.heartbeat_due >= :cutoff THEN 1 END)', 'ok')
      .addSelect('COUNT(CASE WHEN s.heartbeat_due < :cutoff THEN 1 END)', 'overdue')
      .addSelect('COUNT(CASE WHEN s.heartbeat_period < 0 THEN 1 END)', 'no_heartbeat')
      .addSelect('COUNT(CASE WHEN s.heartbeat_period = 0 THEN 1 END)', 'expired')
      .addSelect('COUNT(CASE WHEN s.sprung = 1 THEN 1 END)', 'sprung')
      .addSelect('MIN(s.heartbeat_due)', 'oldest_due')
      .from(SensorEntity, 's')
      .setParameters({ cutoff })
      .getRawOne<CountRow>();
    if (!row) throw new Error('The count of sensors returned no row');
    const oldestDue = row.oldest_due === null ? null : toDate(row.oldest_due);
    return {
      byState: { ok: Number(row.ok), overdue: Number(row.overdue), no_heartbeat: Number(row.no_heartbeat), expired: Number(row.expired) },
      sprung: Number(row.sprung),
      oldestOverdueSeconds: oldestDue && oldestDue < cutoff ? Math.max(0, Math.floor((now - oldestDue.getTime() - graceMs) / 1000)) : 0,
    };
  }
}

/** mysql2 reads a DATETIME as a Date; SQLite gives TypeORM's UTC text. */
function toDate(value: Date | string): Date {
  return value instanceof Date ? value : new Date(`${value.replace(' ', 'T')}Z`);
}
