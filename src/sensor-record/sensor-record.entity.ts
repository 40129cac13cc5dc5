import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One stored sensor record: Drupal's node, revision and field columns in one row, named as the
 * fields so operators can read the table directly. Instants are UTC.
 */
@Entity({ name: 'sensor_report' })
export class SensorRecordEntity {
  @PrimaryGeneratedColumn({ type: 'int', name: 'nid' })
  nid!: number;

  @Column({ type: 'varchar', name: 'uuid', length: 36 })
  uuid!: string;

  /** Revision id; a record has exactly one revision, so it equals `nid` (set in the insert's transaction). */
  @Column({ type: 'int', name: 'vid', nullable: true })
  vid!: number | null;

  @Column({ type: 'varchar', name: 'type', length: 32 })
  type!: string;

  @Column({ type: 'varchar', name: 'langcode', length: 12 })
  langcode!: string;

  @Column({ type: 'boolean', name: 'status' })
  status!: boolean;

  @Column({ type: 'boolean', name: 'promote' })
  promote!: boolean;

  @Column({ type: 'boolean', name: 'sticky' })
  sticky!: boolean;

  @Column({ type: 'boolean', name: 'default_langcode' })
  defaultLangcode!: boolean;

  @Column({ type: 'boolean', name: 'revision_translation_affected' })
  revisionTranslationAffected!: boolean;

  @Column({ type: 'text', name: 'revision_log', nullable: true })
  revisionLog!: string | null;

  @Column({ type: 'int', name: 'uid' })
  uid!: number;

  @Column({ type: 'int', name: 'revision_uid' })
  revisionUid!: number;

  @Column({ type: 'varchar', name: 'title', length: 512 })
  title!: string;

  @Column({ type: 'datetime', name: 'created' })
  created!: Date;

  @Column({ type: 'datetime', name: 'changed' })
  changed!: Date;

  @Column({ type: 'datetime', name: 'revision_timestamp' })
  revisionTimestamp!: Date;

  @Column({ type: 'decimal', name: 'field_battery_voltage', precision: 10, scale: 3, nullable: true })
  fieldBatteryVoltage!: string | number | null;

  @Column({ type: 'int', name: 'field_counter', nullable: true })
  fieldCounter!: number | null;

  @Column({ type: 'decimal', name: 'field_data', precision: 10, scale: 3, nullable: true })
  fieldData!: string | number | null;

  @Column({ type: 'datetime', name: 'field_date' })
  fieldDate!: Date;

  @Column({ type: 'varchar', name: 'field_event', length: 32 })
  fieldEvent!: string;

  @Column({ type: 'varchar', name: 'field_gateway', length: 17, nullable: true })
  fieldGateway!: string | null;

  @Column({ type: 'varchar', name: 'field_network', length: 255, nullable: true })
  fieldNetwork!: string | null;

  @Column({ type: 'int', name: 'field_rssi', nullable: true })
  fieldRssi!: number | null;

  @Column({ type: 'varchar', name: 'field_sensor_id', length: 255 })
  devId!: string;

  @Column({ type: 'int', name: 'field_sequence', nullable: true })
  fieldSequence!: number | null;

  @Column({ type: 'decimal', name: 'field_snr', precision: 10, scale: 3, nullable: true })
  fieldSnr!: string | number | null;

  @Column({ type: 'varchar', name: 'field_status', length: 32, nullable: true })
  fieldStatus!: string | null;

  @Column({ type: 'varchar', name: 'field_tilt_sensor', length: 32, nullable: true })
  fieldTiltSensor!: string | null;

  @Column({ type: 'int', name: 'field_timeout' })
  fieldTimeout!: number;

  /**
   * The network-server uplink the record came from, `<uid>:<network>:<uplink id>`; unique, so that a
   * delivery repeated on any instance stores nothing twice (docs/interface.md#repeated-deliveries).
   * Null for records submitted directly.
   */
  @Column({ type: 'varchar', name: 'uplink_key', length: 255, nullable: true })
  uplinkKey!: string | null;

  /** The integration the record came through; null for records submitted directly. */
  @Column({ type: 'int', name: 'integration_id', nullable: true })
  integrationId!: number | null;

  /** The request body exactly as received, so nothing a device sent is lost; never returned. */
  @Column({ type: 'text', name: 'request_body', select: false })
  requestBody!: string;
}
