import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { ASCII, UNICODE } from '../../database/text-columns.js';

/** An account that may obtain tokens (Drupal's `users_field_data`, reduced to what this service needs). */
@Entity({ name: 'users', comment: 'Accounts that obtain tokens: devices, gateways and operators (Drupal users_field_data, reduced).' })
@Index('users_uuid', ['uuid'], { unique: true })
@Index('users_name', ['name'], { unique: true })
export class UserEntity {
  @PrimaryGeneratedColumn({
    type: 'int',
    name: 'uid',
    comment: 'User id (Drupal uid); sensor_report.uid and the token tables refer to it.',
  })
  uid!: number;

  @Column({ type: 'varchar', name: 'uuid', length: 36, ...ASCII, comment: 'UUID v4 of the user, rendered as target_uuid in records.' })
  uuid!: string;

  /** Unique whatever the letter case: utf8mb4_unicode_ci on MySQL, NOCASE on SQLite (made so by its migration). */
  @Column({
    type: 'varchar',
    name: 'name',
    length: 60,
    ...UNICODE,
    comment: 'User name of the password grant; unique whatever the letter case.',
  })
  name!: string;

  /** Argon2id hash in PHC string form. */
  @Column({
    type: 'varchar',
    name: 'pass',
    length: 255,
    select: false,
    ...ASCII,
    comment: 'Argon2id hash of the password (PHC string); the password itself is never stored.',
  })
  pass!: string;

  /** true = active, false = blocked. */
  @Column({
    type: 'boolean',
    name: 'status',
    default: false,
    comment: '1 active, 0 blocked (no tokens; its tokens refused within 5 s).',
  })
  status!: boolean;

  @Column({ type: 'boolean', name: 'may_create_sensor_records', default: false, comment: '1 may submit sensor records, 0 may not.' })
  mayCreateSensorRecords!: boolean;

  @Column({ type: 'datetime', name: 'created', comment: 'When the user was created, UTC.' })
  created!: Date;

  @Column({ type: 'datetime', name: 'changed', comment: 'When the user was last changed (blocked, unblocked, new password), UTC.' })
  changed!: Date;
}
