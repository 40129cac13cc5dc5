import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * Each time a trap was sprung, until a `Set` (table `sprung_episodes`, docs/alerts.md#the-24-hour-clock):
 * open while `resetAt` is null. Kept whether or not any alert is set, for the admin team's SQL and
 * GET /api-sensor/sprung-episodes.
 */
@Entity({ name: 'sprung_episodes' })
@Index('sprung_episodes_uid_dev_id_reset_at', ['uid', 'devId', 'resetAt'])
@Index('sprung_episodes_reset_at_sprung_at', ['resetAt', 'sprungAt'])
@Index('sprung_episodes_uid_sprung_at', ['uid', 'sprungAt'])
export class SprungEpisodeEntity {
  @PrimaryGeneratedColumn({ type: 'int', name: 'id' })
  id!: number;

  @Column({ type: 'int', name: 'uid' })
  uid!: number;

  @Column({ type: 'varchar', name: 'dev_id', length: 255 })
  devId!: string;

  /** Device time of the report that sprung the trap: the 24 hours run from it. */
  @Column({ type: 'datetime', name: 'sprung_at' })
  sprungAt!: Date;

  @Column({ type: 'int', name: 'sprung_nid' })
  sprungNid!: number;

  @Column({ type: 'datetime', name: 'reset_at', nullable: true })
  resetAt!: Date | null;

  @Column({ type: 'int', name: 'reset_nid', nullable: true })
  resetNid!: number | null;

  @Column({ type: 'datetime', name: 'first_delivered_at', nullable: true })
  firstDeliveredAt!: Date | null;
}
