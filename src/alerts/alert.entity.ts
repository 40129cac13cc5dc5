import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { AlertChannel, AlertEvent, WebhookFormat } from './alert-events.js';

/** Who hears of which sensor events and how (table `alerts`, docs/alerts.md); set up with alert:create. */
@Entity({ name: 'alerts' })
@Index('alerts_uid', ['uid'])
export class AlertEntity {
  @PrimaryGeneratedColumn({ type: 'int', name: 'id' })
  id!: number;

  /** The owner: the alert concerns this user's sensors only. */
  @Column({ type: 'int', name: 'uid' })
  uid!: number;

  @Column({
    type: 'varchar',
    name: 'events',
    length: 255,
    transformer: { to: (events: AlertEvent[]) => events.join(','), from: (text: string) => text.split(',') as AlertEvent[] },
  })
  events!: AlertEvent[];

  /** One sensor of the owner's, or null for all of them. */
  @Column({ type: 'varchar', name: 'dev_id', length: 255, nullable: true })
  devId!: string | null;

  @Column({ type: 'varchar', name: 'channel', length: 16 })
  channel!: AlertChannel;

  @Column({ type: 'text', name: 'target' })
  target!: string;

  @Column({ type: 'varchar', name: 'format', length: 16 })
  format!: WebhookFormat;

  @Column({ type: 'varchar', name: 'secret', length: 128, nullable: true, select: false })
  secret!: string | null;

  @Column({ type: 'decimal', name: 'battery_below', precision: 10, scale: 3, nullable: true })
  batteryBelow!: string | number | null;

  @Column({ type: 'decimal', name: 'bait_below', precision: 10, scale: 3, nullable: true })
  baitBelow!: string | number | null;

  @Column({ type: 'int', name: 'remind_after' })
  remindAfter!: number;

  @Column({ type: 'int', name: 'escalate_after', nullable: true })
  escalateAfter!: number | null;

  @Column({ type: 'varchar', name: 'escalate_channel', length: 16, nullable: true })
  escalateChannel!: AlertChannel | null;

  @Column({ type: 'text', name: 'escalate_target', nullable: true })
  escalateTarget!: string | null;

  @Column({ type: 'datetime', name: 'created' })
  created!: Date;
}
