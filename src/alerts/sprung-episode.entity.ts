import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { UserEntity } from '../auth/users/user.entity.js';

/**
 * Each time a trap was sprung, until a `Set` (table `sprung_episodes`, docs/alerts.md#the-24-hour-clock):
 * open while `resetAt` is null. Kept whether or not any alert is set, for the admin team's SQL and
 * GET /api-sensor/sprung-episodes.
 */
@Entity({
  name: 'sprung_episodes',
  comment: 'Each time a trap was sprung, until a Set: the 24-hour clock of a live-capture trap.',
})
@Index('sprung_episodes_uid_dev_id_reset_at', ['uid', 'devId', 'resetAt'])
@Index('sprung_episodes_reset_at_sprung_at', ['resetAt', 'sprungAt'])
@Index('sprung_episodes_uid_sprung_at', ['uid', 'sprungAt'])
@Index('sprung_episodes_sprung_nid', ['sprungNid'])
export class SprungEpisodeEntity {
  @PrimaryGeneratedColumn({ type: 'int', name: 'id', comment: 'The episode id.' })
  id!: number;

  @Column({ type: 'int', name: 'uid', comment: "users.uid of the sensor's owner." })
  @ForeignKey(() => UserEntity, { name: 'sprung_episodes_uid_fk', onDelete: 'NO ACTION', onUpdate: 'NO ACTION' })
  uid!: number;

  /** Compared exactly, as sensor.dev_id. */
  @Column({ type: 'varchar', name: 'dev_id', length: 255, comment: "The sensor's dev_id." })
  devId!: string;

  /** Order time (record-order.ts) of the report that sprung the trap: the 24 hours run from it. */
  @Column({
    type: 'datetime',
    name: 'sprung_at',
    comment:
      'Order time of the report that sprung the trap (its device time, or its receipt when over 300 s ahead), UTC: the 24 hours run from it.',
  })
  sprungAt!: Date;

  @Column({ type: 'int', name: 'sprung_nid', comment: 'sensor_report.nid of that report.' })
  sprungNid!: number;

  @Column({
    type: 'datetime',
    name: 'reset_at',
    nullable: true,
    comment: 'Order time of the Set report that ended it, UTC; NULL while the trap is sprung (the episode is open).',
  })
  resetAt!: Date | null;

  @Column({ type: 'int', name: 'reset_nid', nullable: true, comment: 'sensor_report.nid of that Set report; NULL while open.' })
  resetNid!: number | null;

  /**
   * Written in the transaction of each step it counts: a `Set` closing the episode writes the same row,
   * so the two conflict, on one MySQL node as on two Galera nodes (docs/alerts.md#the-24-hour-clock).
   */
  @Column({
    type: 'int',
    name: 'clock_steps',
    default: 0,
    comment:
      'Steps of its 24-hour clock written (sprung_reminder, sprung_escalation, sprung_deadline), counted in the transaction that writes them.',
  })
  clockSteps!: number;

  @Column({
    type: 'datetime',
    name: 'first_delivered_at',
    nullable: true,
    comment: 'When the first notification of it was delivered, UTC; NULL until one was.',
  })
  firstDeliveredAt!: Date | null;
}
