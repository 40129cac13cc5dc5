import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One device of one owner and its latest state (table `sensor`), derived from its records: written by
 * the record writer in each record's transaction (`projection/sensor-projection.ts`), read here.
 * Instants are UTC; "last" means the latest device time, then the highest nid.
 */
@Entity({ name: 'sensor' })
export class SensorEntity {
  @PrimaryColumn({ type: 'int', name: 'uid' })
  uid!: number;

  @PrimaryColumn({ type: 'varchar', name: 'dev_id', length: 255 })
  devId!: string;

  @Column({ type: 'int', name: 'report_count' })
  reportCount!: number;

  @Column({ type: 'datetime', name: 'first_received' })
  firstReceived!: Date;

  @Column({ type: 'datetime', name: 'last_received' })
  lastReceived!: Date;

  @Column({ type: 'datetime', name: 'first_device_time' })
  firstDeviceTime!: Date;

  @Column({ type: 'datetime', name: 'last_device_time' })
  lastDeviceTime!: Date;

  @Column({ type: 'int', name: 'last_nid' })
  lastNid!: number;

  @Column({ type: 'varchar', name: 'last_event', length: 32 })
  lastEvent!: string;

  @Column({ type: 'varchar', name: 'last_status', length: 32, nullable: true })
  lastStatus!: string | null;

  @Column({ type: 'decimal', name: 'last_battery_voltage', precision: 10, scale: 3, nullable: true })
  lastBatteryVoltage!: string | number | null;

  /** Device time of the latest record that carried a battery voltage. */
  @Column({ type: 'datetime', name: 'last_battery_time', nullable: true })
  lastBatteryTime!: Date | null;

  @Column({ type: 'int', name: 'last_battery_nid', nullable: true })
  lastBatteryNid!: number | null;

  @Column({ type: 'int', name: 'last_counter', nullable: true })
  lastCounter!: number | null;

  @Column({ type: 'varchar', name: 'last_tilt_sensor', length: 32, nullable: true })
  lastTiltSensor!: string | null;

  /** `field_timeout` of the last record: -1 no heartbeat, 0 expired, n seconds. */
  @Column({ type: 'int', name: 'heartbeat_period' })
  heartbeatPeriod!: number;

  /** `last_received` + `heartbeat_period` when the period is positive, else null. */
  @Column({ type: 'datetime', name: 'heartbeat_due', nullable: true })
  heartbeatDue!: Date | null;

  @Column({ type: 'boolean', name: 'sprung' })
  sprung!: boolean;

  @Column({ type: 'datetime', name: 'trap_status_time', nullable: true })
  trapStatusTime!: Date | null;

  @Column({ type: 'int', name: 'trap_status_nid', nullable: true })
  trapStatusNid!: number | null;

  /** When the sensor was found silent (overdue) and `silent` raised; cleared by its next record in order. */
  @Column({ type: 'datetime', name: 'silent_since', nullable: true })
  silentSince!: Date | null;
}
