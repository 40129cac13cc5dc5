import { type BeforeApplicationShutdown, Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { RoundLoop } from '../common/process/round-loop.js';
import { CLOCK, type Clock } from '../common/time/clock.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { withDatabaseBudget } from '../database/database-deadline.js';
import { MetricsService, type SensorCounts } from '../metrics/metrics.service.js';
import { SensorEntity } from './sensor.entity.js';
import { overdueCutoff, stateCondition } from './sensor-state.js';

interface CountRow {
  ok: number | string;
  overdue: number | string;
  no_heartbeat: number | string;
  expired: number | string;
  sprung: number | string;
  oldest_due: Date | string | null;
  next_due: Date | string | null;
}

/** The shortest wait between two counts, however many sensors fall overdue one after another. */
const MIN_RECOUNT_SPACING_MS = 5000;

/**
 * Counts the sensors per state for the Prometheus gauges (docs/interface.md#metrics-of-sensors): at
 * start-up, then every SENSOR_METRICS_INTERVAL seconds, and once more at the moment the next sensor
 * falls overdue when that comes before the next interval (at most one count every 5 s), so that a
 * silent sensor shows in the gauges within seconds whether or not anyone reads a sensor route. Every
 * instance counts for itself: the count is one read-only scan of a covering index, so several
 * instances doing it cost little and agree. Stopped before the database pool closes on shutdown,
 * waiting for a count in progress.
 */
@Injectable()
export class SensorGaugesService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('SensorGauges');
  private readonly rounds = new RoundLoop(() => this.count(), {
    whileRunning: 'join',
    failed: (error) => this.logger.warn(`Could not count the sensors: ${error instanceof Error ? error.message : String(error)}`),
  });

  constructor(
    private readonly dataSource: DataSource,
    private readonly metrics: MetricsService,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.metrics.enabled) return;
    this.rounds.wake();
    this.rounds.start(this.config.sensors.metricsIntervalSeconds * 1000);
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.rounds.stop();
  }

  /** Counts now (or joins the count in progress); a failure is logged and the gauges keep their values. */
  refresh(): Promise<void> {
    return this.rounds.run().catch(() => undefined);
  }

  private async count(): Promise<void> {
    const now = this.clock.now();
    const { counts, nextOverdueAt } = await withDatabaseBudget(this.config.database.requestTimeoutMs, () => this.read(now));
    this.metrics.sensorsCounted(counts, now);
    this.countAgainAt(now, nextOverdueAt);
  }

  /**
   * Schedules a count for when the next sensor falls overdue, unless the interval's count comes first:
   * that count schedules again from what it reads, and a timer set days ahead would overflow
   * setTimeout's 24.8-day range and fire at once.
   */
  private countAgainAt(now: number, at: number | null): void {
    const beforeInterval = at !== null && at - now < this.config.sensors.metricsIntervalSeconds * 1000;
    this.rounds.wakeIn(beforeInterval ? Math.max(at - now, MIN_RECOUNT_SPACING_MS) : undefined);
  }

  private async read(now: number): Promise<{ counts: SensorCounts; nextOverdueAt: number | null }> {
    const graceMs = this.config.sensors.heartbeatGraceSeconds * 1000;
    const cutoff = overdueCutoff(now, this.config.sensors.heartbeatGraceSeconds);
    const row = await this.dataSource
      .createQueryBuilder()
      .select(`COUNT(CASE WHEN ${stateCondition('ok', 's')} THEN 1 END)`, 'ok')
      .addSelect(`COUNT(CASE WHEN ${stateCondition('overdue', 's')} THEN 1 END)`, 'overdue')
      .addSelect(`COUNT(CASE WHEN ${stateCondition('no_heartbeat', 's')} THEN 1 END)`, 'no_heartbeat')
      .addSelect(`COUNT(CASE WHEN ${stateCondition('expired', 's')} THEN 1 END)`, 'expired')
      .addSelect('COUNT(CASE WHEN s.sprung = 1 THEN 1 END)', 'sprung')
      .addSelect('MIN(s.heartbeat_due)', 'oldest_due')
      .addSelect(`MIN(CASE WHEN ${stateCondition('ok', 's')} THEN s.heartbeat_due END)`, 'next_due')
      .from(SensorEntity, 's')
      .setParameters({ cutoff })
      .getRawOne<CountRow>();
    if (!row) throw new Error('The count of sensors returned no row');
    const oldestDue = row.oldest_due === null ? null : toDate(row.oldest_due);
    // A sensor is overdue once the cutoff (now less the grace, in whole seconds) has passed its due time.
    const nextDue = row.next_due === null ? null : toDate(row.next_due);
    return {
      counts: {
        byState: { ok: Number(row.ok), overdue: Number(row.overdue), no_heartbeat: Number(row.no_heartbeat), expired: Number(row.expired) },
        sprung: Number(row.sprung),
        oldestOverdueSeconds: oldestDue && oldestDue < cutoff ? Math.max(0, Math.floor((now - oldestDue.getTime() - graceMs) / 1000)) : 0,
      },
      nextOverdueAt: nextDue === null ? null : nextDue.getTime() + graceMs + 1000,
    };
  }
}

/** mysql2 reads a DATETIME as a Date; SQLite gives TypeORM's UTC text. */
function toDate(value: Date | string): Date {
  return value instanceof Date ? value : new Date(`${value.replace(' ', 'T')}Z`);
}
