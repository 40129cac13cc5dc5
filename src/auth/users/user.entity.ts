import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** An account that may obtain tokens (Drupal's `users_field_data`, reduced to what this service needs). */
@Entity({ name: 'users' })
export class UserEntity {
  @PrimaryGeneratedColumn({ type: 'int', name: 'uid' })
  uid!: number;

  @Column({ type: 'varchar', name: 'uuid', length: 36 })
  uuid!: string;

  @Column({ type: 'varchar', name: 'name', length: 60 })
  name!: string;

  /** Argon2id hash in PHC string form. */
  @Column({ type: 'varchar', name: 'pass', length: 255, select: false })
  pass!: string;

  /** true = active, false = blocked. */
  @Column({ type: 'boolean', name: 'status' })
  status!: boolean;

  @Column({ type: 'boolean', name: 'may_create_sensor_records' })
  mayCreateSensorRecords!: boolean;

  @Column({ type: 'datetime', name: 'created' })
  created!: Date;

  @Column({ type: 'datetime', name: 'changed' })
  changed!: Date;
}
