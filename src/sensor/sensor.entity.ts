import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { UserEntity } from '../auth/users/user.entity.js';
import { ASCII } from '../database/text-columns.js';

/**
 * One device of one owner and its latest state (table `sensor`), derived from its records: written by
 * the record writer in each record's transaction (`projection/sensor-projection.ts`), read here.
 * Instants are UTC; "last" means the latest order time (projection/record-order.ts), then the highest nid.
 */
@Entity({
  name: 'sensor',
  comment: 'One row per owner and device (uid, dev_id): its latest state, kept in the transaction that stores each of its records.',
})
// The list's equality filters keep dev_id order; ok and overdue are filtered along the primary key.
@Index('sensor_uid_heartbeat_period_dev_id', ['uid', 'heartbeatPeriod', 'devId'])
@Index('sensor_uid_sprung_dev_id', ['uid', 'sprung', 'devId'])
// The gauges' one covering scan.
@Index('sensor_heartbeat_due_heartbeat_period_sprung', ['heartbeatDue', 'heartbeatPeriod', 'sprung'])
export class SensorEntity {
  /** A user who has records cannot be deleted (sensor_report refers to users the same way). */
  @PrimaryColumn({ type: 'int', name: 'uid', comment: 'users.uid of the owner: the user whose token submitted the records.' })
  @ForeignKey(() => UserEntity, { name: 'sensor_uid_fk', onDelete: 'NO ACTION', onUpdate: 'NO ACTION' })
  uid!: number;

  /** Compared as sensor_report.field_sensor_id is: exactly (its collation chosen per server, see there). */
  @PrimaryColumn({
    type: 'varchar',
    name: 'dev_id',
    length: 255,
    comment: 'Device id (dev_id) as its reports spelled it; with uid, the key.',
  })
  devId!: string;

  @Column({ type: 'int', name: 'report_count', comment: 'Number of records of this device and owner.' })
  reportCount!: number;

  @Column({ type: 'datetime', name: 'first_received', comment: 'When the first record arrived (server time), UTC.' })
  firstReceived!: Date;

  @Column({
    type: 'datetime',
    name: 'last_received',
    comment: 'When the latest record arrived (server time), UTC; overdue is measured from it.',
  })
  lastReceived!: Date;

  @Column({ type: 'datetime', name: 'first_device_time', comment: 'Earliest device time (field_date) among the records, UTC.' })
  firstDeviceTime!: Date;

  @Column({
    type: 'datetime',
    name: 'last_device_time',
    comment:
      'Order time of the last record (field_date; created when field_date is over 300 s ahead of it): the latest, then the highest nid; UTC.',
  })
  lastDeviceTime!: Date;

  @Column({
    type: 'int',
    name: 'last_nid',
    comment: 'sensor_report.nid of the last record (latest order time, then highest nid).',
  })
  lastNid!: number;

  @Column({
    type: 'varchar',
    name: 'last_event',
    length: 32,
    ...ASCII,
    comment: 'field_event of the last record: Sprung, Set, Vibration, Heartbeat or Baitlevel.',
  })
  lastEvent!: string;

  @Column({
    type: 'varchar',
    name: 'last_status',
    length: 32,
    nullable: true,
    ...ASCII,
    comment: 'field_status of the last record; NULL when it had none.',
  })
  lastStatus!: string | null;

  @Column({
    type: 'decimal',
    name: 'last_battery_voltage',
    precision: 10,
    scale: 3,
    nullable: true,
    comment: 'field_battery_voltage of the latest record that carried one, volts (the last known voltage); NULL when none did.',
  })
  lastBatteryVoltage!: string | number | null;

  /** Order time (record-order.ts) of the latest record that carried a battery voltage. */
  @Column({
    type: 'datetime',
    name: 'last_battery_time',
    nullable: true,
    comment: 'Order time of the latest record that carried a battery voltage, UTC; NULL when none did.',
  })
  lastBatteryTime!: Date | null;

  @Column({ type: 'int', name: 'last_battery_nid', nullable: true, comment: 'sensor_report.nid of that record; NULL when none did.' })
  lastBatteryNid!: number | null;

  @Column({ type: 'int', name: 'last_counter', nullable: true, comment: 'field_counter of the last record; NULL when it had none.' })
  lastCounter!: number | null;

  @Column({
    type: 'varchar',
    name: 'last_tilt_sensor',
    length: 32,
    nullable: true,
    ...ASCII,
    comment: 'field_tilt_sensor of the last record; NULL when it had none.',
  })
  lastTiltSensor!: string | null;

  /** `field_timeout` of the last record: -1 no heartbeat, 0 expired, n seconds. */
  @Column({
    type: 'int',
    name: 'heartbeat_period',
    comment: 'field_timeout of the last record, seconds: -1 no heartbeat, 0 expired.',
  })
  heartbeatPeriod!: number;

  /** `last_received` + `heartbeat_period` when the period is positive, else null. */
  @Column({
    type: 'datetime',
    name: 'heartbeat_due',
    nullable: true,
    comment:
      'last_received + heartbeat_period, UTC, when heartbeat_period > 0 (else NULL); overdue once SENSOR_HEARTBEAT_GRACE has passed too.',
  })
  heartbeatDue!: Date | null;

  @Column({
    type: 'boolean',
    name: 'sprung',
    comment: '1 when the latest record (by order time, then nid) that said Sprung or Set said Sprung.',
  })
  sprung!: boolean;

  @Column({
    type: 'datetime',
    name: 'trap_status_time',
    nullable: true,
    comment: 'Order time of that latest record saying Sprung or Set, UTC; NULL when none did.',
  })
  trapStatusTime!: Date | null;

  @Column({ type: 'int', name: 'trap_status_nid', nullable: true, comment: 'sensor_report.nid of that record; NULL when none did.' })
  trapStatusNid!: number | null;

  /** When the sensor was found silent (overdue) and `silent` raised; cleared by the next record to arrive. */
  @Column({
    type: 'datetime',
    name: 'silent_since',
    nullable: true,
    comment: 'When the sensor was found overdue and `silent` raised, UTC; NULL again once a record arrives, late or not.',
  })
  silentSince!: Date | null;
}
