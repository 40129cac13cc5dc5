import { Inject, Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { writeConflictRetries } from '../database/write-conflict.js';
import { databasePoolUsage } from './database-pool-usage.js';

export type GrantOutcome =
  'success' | 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unsupported_grant_type' | 'throttled' | 'busy' | 'error';

/** Which integration an uplink came through (its id as text) and its network server. */
export interface IntegrationLabels {
  integration: string;
  network: string;
}

/** How an uplink was answered: stored (201), stored before (200) or acknowledged without a record (202). */
export type UplinkOutcome = 'stored' | 'duplicate' | 'refused';

/** The sensors of every owner at one instant (docs/interface.md#metrics-of-sensors). */
export interface SensorCounts {
  byState: Record<string, number>;
  sprung: number;
  oldestOverdueSeconds: number;
}

/**
 * The service's Prometheus metrics. One registry per application instance (not prom-client's global
 * one), so several applications in one process — as in the tests — never collide.
 */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();

  private readonly requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });

  private readonly requestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method, route and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });

  private readonly recordsCreated = new Counter({
    name: 'sensor_records_created_total',
    help: 'Sensor records stored, by field_event.',
    labelNames: ['event'] as const,
    registers: [this.registry],
  });

  private readonly recordsUnconfirmed = new Counter({
    name: 'sensor_records_unconfirmed_total',
    help: 'Records answered 503 after their COMMIT was sent but not confirmed in time (one per submission, every report of a batch): each may be stored.',
    registers: [this.registry],
  });

  private readonly tokenGrants = new Counter({
    name: 'oauth_token_grants_total',
    help: 'Token endpoint answers, by grant type and outcome.',
    labelNames: ['grant_type', 'outcome'] as const,
    registers: [this.registry],
  });

  private readonly uplinksReceived = new Counter({
    name: 'integration_uplinks_received_total',
    help: 'Uplinks network servers posted with a valid integration key, by integration id and network.',
    labelNames: ['integration', 'network'] as const,
    registers: [this.registry],
  });

  private readonly uplinksAnswered = new Counter({
    name: 'integration_uplinks_total',
    help: 'Uplinks answered, by integration id, network and outcome: stored (201), duplicate (200) or refused (202).',
    labelNames: ['integration', 'network', 'outcome'] as const,
    registers: [this.registry],
  });

  private readonly uplinksRefused = new Counter({
    name: 'integration_uplinks_refused_total',
    help: 'Uplinks acknowledged without a record (202), by integration id, network and reason.',
    labelNames: ['integration', 'network', 'reason'] as const,
    registers: [this.registry],
  });

  private readonly sensors = new Gauge({
    name: 'sensors',
    help: 'Sensors (devices of every owner) by state: ok, overdue, no_heartbeat, expired; counted every SENSOR_METRICS_INTERVAL seconds.',
    labelNames: ['state'] as const,
    registers: [this.registry],
  });

  private readonly sensorsSprung = new Gauge({
    name: 'sensors_sprung',
    help: 'Sensors whose trap is sprung (the latest report saying Sprung or Set said Sprung).',
    registers: [this.registry],
  });

  private readonly sensorsOldestOverdue = new Gauge({
    name: 'sensors_oldest_overdue_seconds',
    help: 'How long the sensor that has been overdue longest has been overdue, seconds; 0 when none is.',
    registers: [this.registry],
  });

  private readonly sensorsCountedAt = new Gauge({
    name: 'sensors_counted_timestamp_seconds',
    help: 'When the sensor gauges were last counted, seconds since 1970-01-01 UTC (stale when the database is away).',
    registers: [this.registry],
  });

  private readonly recordsPurged = new Counter({
    name: 'sensor_records_purged_total',
    help: 'Retention in this process (docs/operations.md#retention): records deleted (what="records") and request bodies emptied (what="request_bodies").',
    labelNames: ['what'] as const,
    registers: [this.registry],
  });

  private readonly oldestRecordAge = new Gauge({
    name: 'sensor_records_oldest_age_seconds',
    help: 'Age of the oldest record kept (by its created instant), seconds, as of the last retention check; 0 when there is none.',
    registers: [this.registry],
  });

  private readonly notificationsPending = new Gauge({
    name: 'alert_notifications_pending',
    help: 'Alert notifications written and not yet delivered or failed (docs/alerts.md#delivery), as of the last check of the alerts clock.',
    registers: [this.registry],
  });

  private readonly notificationsOldestPending = new Gauge({
    name: 'alert_notifications_oldest_pending_age_seconds',
    help: 'Age of the oldest pending alert notification, seconds; 0 when none is pending.',
    registers: [this.registry],
  });

  private readonly notificationDeliveries = new Counter({
    name: 'alert_notification_sends_total',
    help: 'Sends of alert notifications by this instance, by channel and outcome: delivered, retry (to be tried again) or failed.',
    labelNames: ['channel', 'outcome'] as const,
    registers: [this.registry],
  });

  private readonly notificationLatency = new Histogram({
    name: 'alert_notification_delivery_seconds',
    help: "From the commit of the record (or clock pass) that raised a notification to the receiver's acceptance, seconds, by channel.",
    labelNames: ['channel'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15, 60, 300, 3600, 86400],
    registers: [this.registry],
  });

  constructor(@Inject(APP_CONFIG) config: AppConfig, dataSource: DataSource) {
    collectDefaultMetrics({ register: this.registry });
    // Shown at 0 from the start, so that a rate over them is defined before the first purge.
    for (const what of ['records', 'request_bodies']) this.recordsPurged.labels({ what }).inc(0);
    const poolSize = config.database.type === 'mysql' ? config.database.poolSize : 1;
    new Gauge({
      name: 'db_pool_connections',
      help: 'Database connections by state (in_use, idle) and the configured maximum (max).',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        const usage = databasePoolUsage(dataSource);
        this.set({ state: 'in_use' }, usage.inUse);
        this.set({ state: 'idle' }, usage.idle);
        this.set({ state: 'max' }, poolSize);
      },
    });
    new Counter({
      name: 'db_write_conflict_retries_total',
      help: 'Transactions run again after a deadlock or, on a Galera cluster, a certification failure (error 1213), in this process.',
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc(writeConflictRetries());
      },
    });
  }

  observeRequest(method: string, route: string, status: number, seconds: number): void {
    const labels = { method, route, status: String(status) };
    this.requests.inc(labels);
    this.requestDuration.observe(labels, seconds);
  }

  recordCreated(event: string): void {
    this.recordsCreated.inc({ event });
  }

  recordUnconfirmed(records = 1): void {
    this.recordsUnconfirmed.inc(records);
  }

  uplinkReceived(labels: IntegrationLabels): void {
    this.uplinksReceived.inc({ ...labels });
  }

  /** `reason` for a refused uplink. */
  uplinkAnswered(labels: IntegrationLabels, outcome: UplinkOutcome, reason?: string): void {
    this.uplinksAnswered.inc({ ...labels, outcome });
    if (reason !== undefined) this.uplinksRefused.inc({ ...labels, reason });
  }

  sensorsCounted(counts: SensorCounts, countedAt: number): void {
    for (const [state, count] of Object.entries(counts.byState)) this.sensors.set({ state }, count);
    this.sensorsSprung.set(counts.sprung);
    this.sensorsOldestOverdue.set(counts.oldestOverdueSeconds);
    this.sensorsCountedAt.set(Math.floor(countedAt / 1000));
  }

  purged(what: 'records' | 'request_bodies', rows: number): void {
    this.recordsPurged.inc({ what }, rows);
  }

  oldestRecordSeen(created: Date | null, now: number): void {
    this.oldestRecordAge.set(created ? Math.max(0, Math.floor((now - created.getTime()) / 1000)) : 0);
  }

  notificationsCounted(pending: number, oldestPendingSeconds: number): void {
    this.notificationsPending.set(pending);
    this.notificationsOldestPending.set(oldestPendingSeconds);
  }

  /** One send's outcome; for a delivery, the seconds since its notification was written. */
  notificationSent(channel: string, outcome: 'delivered' | 'retry' | 'failed', secondsSinceWritten?: number): void {
    this.notificationDeliveries.inc({ channel, outcome });
    if (secondsSinceWritten !== undefined) this.notificationLatency.observe({ channel }, secondsSinceWritten);
  }

  tokenGrant(grantType: string, outcome: GrantOutcome): void {
    this.tokenGrants.inc({ grant_type: grantType, outcome });
  }
}
