import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** One failed password grant, counted per user name and per client address for the flood limits. */
@Entity({ name: 'login_failures' })
export class LoginFailureEntity {
  @PrimaryGeneratedColumn({ type: 'int', name: 'id' })
  id!: number;

  /**
   * The user name as tried, lower-cased, so that the limit holds whatever the spelling; null for a
   * refused integration key, which counts per address only.
   */
  @Column({ type: 'varchar', name: 'username', length: 255, nullable: true })
  username!: string | null;

  @Column({ type: 'varchar', name: 'address', length: 64 })
  address!: string;

  @Column({ type: 'datetime', name: 'attempted_at' })
  attemptedAt!: Date;
}
