import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { ASCII, UNICODE } from '../../database/text-columns.js';

const LOGIN_FAILURES_COMMENT =
  'Failed password grants, and those being checked, counted for the per-user-name and per-address flood limits.';

/**
 * How long a pending row counts: longer than any password check takes (each waits for a place in a
 * bounded line, then for the database within DB_REQUEST_TIMEOUT_MS), so a row left pending by a
 * crashed instance or an unreachable database stops holding the limit after this, not for a window.
 */
export const PENDING_CHECK_SECONDS = 60;

/**
 * One failed password grant, or one still being checked (pending), counted per user name and per client
 * address for the flood limits (docs/interface.md#failed-login-limits).
 */
@Entity({ name: 'login_failures', comment: LOGIN_FAILURES_COMMENT })
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

  @Column({ type: 'datetime', name: 'attempted_at', comment: 'When the attempt failed, or, while pending, when its check began; UTC.' })
  attemptedAt!: Date;

  @Column({
    type: 'boolean',
    name: 'pending',
    default: false,
    comment: '1 while the password is being checked (attempted_at is when the check began; counted for 60 s at most), 0 for a failure.',
  })
  pending!: boolean;
}
