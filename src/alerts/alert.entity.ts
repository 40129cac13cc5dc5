import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { UserEntity } from '../auth/users/user.entity.js';
import { ASCII, UNICODE } from '../database/text-columns.js';
import type { AlertChannel, AlertEvent, WebhookFormat } from './alert-events.js';

/** Who hears of which sensor events and how (table `alerts`, docs/alerts.md); set up with alert:create. */
@Entity({ name: 'alerts', comment: 'Who hears of which sensor events, and how: set up with alert:create.' })
@Index('alerts_uid', ['uid'])
export class AlertEntity {
  @PrimaryGeneratedColumn({ type: 'int', name: 'id', comment: 'The alert id (alert:list, alert:delete --id).' })
  id!: number;

  /** The owner: the alert concerns this user's sensors only. A user who has alerts cannot be deleted. */
  @Column({ type: 'int', name: 'uid', comment: "users.uid of the owner: the alert concerns this user's sensors only." })
  @ForeignKey(() => UserEntity, { name: 'alerts_uid_fk', onDelete: 'NO ACTION', onUpdate: 'NO ACTION' })
  uid!: number;

  @Column({
    type: 'varchar',
    name: 'events',
    length: 255,
    ...ASCII,
    comment:
      'The events it sends, comma-separated: sprung, reset, silent, back, battery_low, tilted, bait_low, sprung_reminder, sprung_escalation, sprung_deadline.',
    transformer: { to: (events: AlertEvent[]) => events.join(','), from: (text: string) => text.split(',') as AlertEvent[] },
  })
  events!: AlertEvent[];

  /** One sensor of the owner's, or null for all of them; compared exactly, as sensor.dev_id. */
  @Column({
    type: 'varchar',
    name: 'dev_id',
    length: 255,
    nullable: true,
    comment: "Only this sensor of the owner's (exactly as dev_id); NULL for every sensor of the owner.",
  })
  devId!: string | null;

  @Column({ type: 'varchar', name: 'channel', length: 16, ...ASCII, comment: 'webhook or email.' })
  channel!: AlertChannel;

  @Column({ type: 'text', name: 'target', ...UNICODE, comment: 'The webhook URL or the email address.' })
  target!: string;

  @Column({ type: 'varchar', name: 'format', length: 16, ...ASCII, comment: "A webhook's body: json, slack or text." })
  format!: WebhookFormat;

  @Column({
    type: 'varchar',
    name: 'secret',
    length: 128,
    nullable: true,
    select: false,
    ...ASCII,
    comment: "The webhook's signing secret (HMAC-SHA256); NULL for email. A secret: whoever reads it can sign notifications.",
  })
  secret!: string | null;

  @Column({
    type: 'decimal',
    name: 'battery_below',
    precision: 10,
    scale: 3,
    nullable: true,
    comment: 'battery_low when the last known voltage falls below this, volts; NULL: no battery_low.',
  })
  batteryBelow!: string | number | null;

  @Column({
    type: 'decimal',
    name: 'bait_below',
    precision: 10,
    scale: 3,
    nullable: true,
    comment: "bait_low when a Baitlevel report's field_data is below this; NULL: no bait_low.",
  })
  baitBelow!: string | number | null;

  @Column({
    type: 'int',
    name: 'remind_after',
    comment: 'Seconds after a sprung report that sprung_reminder is sent while the trap is not set.',
  })
  remindAfter!: number;

  @Column({
    type: 'int',
    name: 'escalate_after',
    nullable: true,
    comment: 'Seconds after a sprung report that sprung_escalation goes to the escalation target; NULL: none.',
  })
  escalateAfter!: number | null;

  @Column({
    type: 'varchar',
    name: 'escalate_channel',
    length: 16,
    nullable: true,
    ...ASCII,
    comment: 'webhook or email, for the escalation; NULL: none.',
  })
  escalateChannel!: AlertChannel | null;

  @Column({
    type: 'text',
    name: 'escalate_target',
    nullable: true,
    ...UNICODE,
    comment: "The escalation's webhook URL or email address; NULL: none.",
  })
  escalateTarget!: string | null;

  @Column({ type: 'datetime', name: 'created', comment: 'When the alert was created, UTC.' })
  created!: Date;
}
