import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { ASCII, UNICODE } from '../../database/text-columns.js';

/** One failed password grant, counted per user name and per client address for the flood limits. */
@Entity({ name: 'login_failures', comment: 'Failed password grants, counted for the per-user-name and per-address flood limits.' })
@Index('login_failures_username', ['username', 'attemptedAt'])
@Index('login_failures_address', ['address', 'attemptedAt'])
@Index('login_failures_attempted_at', ['attemptedAt'])
export class LoginFailureEntity {
  @PrimaryGeneratedColumn({ type: 'int', name: 'id', comment: 'Row id.' })
  id!: number;

  /**
   * The user name as tried, lower-cased, so that the limit holds whatever the spelling; null for a
   * refused integration key, which counts per address only. NOCASE on SQLite, as `users.name`.
   */
  @Column({
    type: 'varchar',
    name: 'username',
    length: 255,
    nullable: true,
    ...UNICODE,
    comment: 'User name as tried, trimmed and lower-cased (it need not exist); NULL for a refused integration key.',
  })
  username!: string | null;

  @Column({
    type: 'varchar',
    name: 'address',
    length: 64,
    ...ASCII,
    comment: 'Client IP address (from X-Forwarded-For when TRUST_PROXY is set).',
  })
  address!: string;

  @Column({ type: 'datetime', name: 'attempted_at', comment: 'When the attempt failed, UTC.' })
  attemptedAt!: Date;
}
