import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { NotificationEvent, NotificationStatus, Recipient } from './alert-events.js';

/**
 * One notification of an alert (table `alert_notifications`, docs/alerts.md#delivery): written in the
 * transaction of the record that causes it, then claimed, sent and marked by one instance.
 */
@Entity({ name: 'alert_notifications' })
@Index('alert_notifications_status_next_attempt_at', ['status', 'nextAttemptAt'])
@Index('alert_notifications_alert_id_uid_dev_id_status_id', ['alertId', 'uid', 'devId', 'status', 'id'])
@Index('alert_notifications_dedupe_key', ['dedupeKey'], { unique: true })
@Index('alert_notifications_episode_id', ['episodeId'])
export class AlertNotificationEntity {
  @PrimaryGeneratedColumn({ type: 'int', name: 'id' })
  id!: number;

  @Column({ type: 'int', name: 'alert_id' })
  alertId!: number;

  @Column({ type: 'int', name: 'uid' })
  uid!: number;

  @Column({ type: 'varchar', name: 'dev_id', length: 255 })
  devId!: string;

  @Column({ type: 'varchar', name: 'event', length: 32 })
  event!: NotificationEvent;

  @Column({ type: 'varchar', name: 'recipient', length: 16 })
  recipient!: Recipient;

  @Column({ type: 'datetime', name: 'occurred_at' })
  occurredAt!: Date;

  @Column({ type: 'text', name: 'text' })
  text!: string;

  /** The sensor as the sensor routes answer it, as JSON. */
  @Column({ type: 'text', name: 'sensor' })
  sensor!: string;

  @Column({ type: 'int', name: 'record_nid', nullable: true })
  recordNid!: number | null;

  @Column({ type: 'int', name: 'episode_id', nullable: true })
  episodeId!: number | null;

  @Column({ type: 'varchar', name: 'dedupe_key', length: 191, nullable: true })
  dedupeKey!: string | null;

  @Column({ type: 'varchar', name: 'status', length: 16 })
  status!: NotificationStatus;

  @Column({ type: 'int', name: 'attempts' })
  attempts!: number;

  @Column({ type: 'datetime', name: 'next_attempt_at' })
  nextAttemptAt!: Date;

  @Column({ type: 'varchar', name: 'claimed_by', length: 36, nullable: true })
  claimedBy!: string | null;

  @Column({ type: 'datetime', name: 'claimed_until', nullable: true })
  claimedUntil!: Date | null;

  @Column({ type: 'datetime', name: 'created' })
  created!: Date;

  @Column({ type: 'datetime', name: 'delivered_at', nullable: true })
  deliveredAt!: Date | null;

  @Column({ type: 'text', name: 'last_error', nullable: true })
  lastError!: string | null;
}
