import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { ASCII, UNICODE } from '../database/text-columns.js';
import type { NotificationEvent, NotificationStatus, Recipient } from './alert-events.js';
import { AlertEntity } from './alert.entity.js';

/**
 * One notification of an alert (table `alert_notifications`, docs/alerts.md#delivery): written in the
 * transaction of the record that causes it, then claimed, sent and marked by one instance.
 */
@Entity({
  name: 'alert_notifications',
  comment: 'The notifications of the alerts: written in the transaction of the record that causes each, sent by one instance.',
})
// The dispatcher's scan for work, and the head of each alert's queue per sensor.
@Index('alert_notifications_status_next_attempt_at', ['status', 'nextAttemptAt'])
@Index('alert_notifications_alert_id_uid_dev_id_status_id', ['alertId', 'uid', 'devId', 'status', 'id'])
@Index('alert_notifications_dedupe_key', ['dedupeKey'], { unique: true })
@Index('alert_notifications_episode_id', ['episodeId'])
export class AlertNotificationEntity {
  @PrimaryGeneratedColumn({
    type: 'int',
    name: 'id',
    comment: 'The notification id: Idempotency-Key and notification_id of the webhook.',
  })
  id!: number;

  /** Deleted with its alert. */
  @Column({ type: 'int', name: 'alert_id', comment: 'alerts.id.' })
  @ForeignKey(() => AlertEntity, { name: 'alert_notifications_alert_fk', onDelete: 'CASCADE', onUpdate: 'NO ACTION' })
  alertId!: number;

  @Column({ type: 'int', name: 'uid', comment: "users.uid of the sensor's owner (the alert's)." })
  uid!: number;

  /** Compared exactly, as sensor.dev_id. */
  @Column({ type: 'varchar', name: 'dev_id', length: 255, comment: "The sensor's dev_id; empty for a test notification." })
  devId!: string;

  @Column({
    type: 'varchar',
    name: 'event',
    length: 32,
    ...ASCII,
    comment: 'sprung, reset, silent, back, battery_low, tilted, bait_low, sprung_reminder, sprung_escalation, sprung_deadline or test.',
  })
  event!: NotificationEvent;

  @Column({
    type: 'varchar',
    name: 'recipient',
    length: 16,
    ...ASCII,
    comment: "primary (the alert's target) or escalation (its escalation target).",
  })
  recipient!: Recipient;

  @Column({
    type: 'datetime',
    name: 'occurred_at',
    comment:
      "When the event happened, UTC: the record's order time (its device time, or its receipt when over 300 s ahead), or the clock's for silent and the 24-hour clock.",
  })
  occurredAt!: Date;

  @Column({ type: 'text', name: 'text', ...UNICODE, comment: "The notification's text, as sent." })
  text!: string;

  /** The sensor as the sensor routes answer it, as JSON. */
  @Column({
    type: 'text',
    name: 'sensor',
    ...UNICODE,
    comment: 'The sensor as the sensor routes answered it when the event was raised (JSON).',
  })
  sensor!: string;

  @Column({
    type: 'int',
    name: 'record_nid',
    nullable: true,
    comment: 'sensor_report.nid of the record that raised it; NULL for silent, the 24-hour clock and test.',
  })
  recordNid!: number | null;

  @Column({
    type: 'int',
    name: 'episode_id',
    nullable: true,
    comment: 'sprung_episodes.id for sprung and the 24-hour clock; NULL otherwise.',
  })
  episodeId!: number | null;

  @Column({
    type: 'varchar',
    name: 'dedupe_key',
    length: 191,
    nullable: true,
    ...ASCII,
    comment: 'Unique name of an event raised by the clock (event:episode:alert), so that it is raised once; NULL otherwise.',
  })
  dedupeKey!: string | null;

  @Column({ type: 'varchar', name: 'status', length: 16, ...ASCII, comment: 'pending, delivered or failed.' })
  status!: NotificationStatus;

  @Column({ type: 'int', name: 'attempts', comment: 'Sends tried.' })
  attempts!: number;

  @Column({ type: 'datetime', name: 'next_attempt_at', comment: 'When it may be tried (again), UTC.' })
  nextAttemptAt!: Date;

  @Column({
    type: 'varchar',
    name: 'claimed_by',
    length: 36,
    nullable: true,
    ...ASCII,
    comment: 'Random id of the instance sending it now; NULL when none is.',
  })
  claimedBy!: string | null;

  @Column({
    type: 'datetime',
    name: 'claimed_until',
    nullable: true,
    comment: 'When that claim runs out (the instance died), UTC; NULL when unclaimed.',
  })
  claimedUntil!: Date | null;

  @Column({ type: 'datetime', name: 'created', comment: 'When it was written (with its record), UTC.' })
  created!: Date;

  @Column({
    type: 'datetime',
    name: 'delivered_at',
    nullable: true,
    comment: 'When the receiver accepted it, UTC; NULL until then.',
  })
  deliveredAt!: Date | null;

  @Column({
    type: 'text',
    name: 'last_error',
    nullable: true,
    ...UNICODE,
    comment: 'What the last failed try met (no secrets, no query strings); NULL when none failed.',
  })
  lastError!: string | null;
}
