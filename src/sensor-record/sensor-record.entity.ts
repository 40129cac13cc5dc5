import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { UserEntity } from '../auth/users/user.entity.js';
import { IntegrationEntity } from '../integrations/integration.entity.js';
import { ASCII, UNICODE } from '../database/text-columns.js';
import { NodeTypeEntity } from './node-type.entity.js';

/**
 * A record must never be lost: deleting a user, the bundle or an integration that records refer to is
 * refused, not cascaded (docs/operations.md#storage). NO ACTION, which InnoDB and SQLite check at once
 * as they do RESTRICT: the rule MariaDB records for a key added in place.
 */
const REFUSED = { onDelete: 'NO ACTION', onUpdate: 'NO ACTION' } as const;

/**
 * One stored sensor record: Drupal's node, revision and field columns in one row, named as the
 * fields so operators can read the table directly. Instants are UTC.
 */
@Entity({
  name: 'sensor_report',
  comment: 'One row per sensor record (a Drupal node of bundle sensor_report); the service never changes or deletes one.',
})
@Index('sensor_report_uuid', ['uuid'], { unique: true })
@Index('sensor_report_sensor_date', ['devId', 'fieldDate'])
// Keyset reads of a user's records in (changed, nid) order (docs/interface.md#get-api-sensorsensor-records).
@Index('sensor_report_uid_changed', ['uid', 'changed', 'nid'])
// Retention's cut and the oldest record's gauge (docs/operations.md#retention).
@Index('sensor_report_created', ['created'])
@Index('sensor_report_uplink_key', ['uplinkKey'], { unique: true })
// InnoDB needs an index on each referencing column.
@Index('sensor_report_uid', ['uid'])
@Index('sensor_report_revision_uid', ['revisionUid'])
@Index('sensor_report_type', ['type'])
@Index('sensor_report_integration_id', ['integrationId'])
export class SensorRecordEntity {
  @PrimaryGeneratedColumn({ type: 'int', name: 'nid', comment: 'Record id (Drupal nid), as in /node/<nid>.' })
  nid!: number;

  @Column({ type: 'varchar', name: 'uuid', length: 36, ...ASCII, comment: 'UUID v4 of the record.' })
  uuid!: string;

  /** Revision id; a record has exactly one revision, so it equals `nid` (set in the insert's transaction). */
  @Column({
    type: 'int',
    name: 'vid',
    nullable: true,
    comment: 'Revision id: equal to nid (one revision per record); NULL only while the row is being written.',
  })
  vid!: number | null;

  @Column({ type: 'varchar', name: 'type', length: 32, ...ASCII, comment: 'Bundle, node_type.type: always sensor_report.' })
  @ForeignKey(() => NodeTypeEntity, { name: 'sensor_report_type_fk', ...REFUSED })
  type!: string;

  @Column({ type: 'varchar', name: 'langcode', length: 12, ...ASCII, comment: 'Language code: always en.' })
  langcode!: string;

  @Column({ type: 'boolean', name: 'status', comment: 'Published: always 1.' })
  status!: boolean;

  @Column({ type: 'boolean', name: 'promote', comment: 'Promoted to the front page: always 0.' })
  promote!: boolean;

  @Column({ type: 'boolean', name: 'sticky', comment: 'Sticky: always 0.' })
  sticky!: boolean;

  @Column({ type: 'boolean', name: 'default_langcode', comment: 'Default translation: always 1.' })
  defaultLangcode!: boolean;

  @Column({ type: 'boolean', name: 'revision_translation_affected', comment: 'Always 1.' })
  revisionTranslationAffected!: boolean;

  @Column({
    type: 'text',
    name: 'revision_log',
    nullable: true,
    ...UNICODE,
    comment: 'Revision log message: always NULL (rendered as an empty list).',
  })
  revisionLog!: string | null;

  @Column({ type: 'int', name: 'uid', comment: 'users.uid of the user whose access token submitted the record.' })
  @ForeignKey(() => UserEntity, { name: 'sensor_report_uid_fk', ...REFUSED })
  uid!: number;

  @Column({ type: 'int', name: 'revision_uid', comment: 'users.uid of the revision author: the same user.' })
  @ForeignKey(() => UserEntity, { name: 'sensor_report_revision_uid_fk', ...REFUSED })
  revisionUid!: number;

  @Column({
    type: 'varchar',
    name: 'title',
    length: 512,
    ...UNICODE,
    comment:
      'Sensor report: <dev_id> (<metadata.time>), the device time quoted exactly as submitted, in whatever offset the device used (or none: then local to SITE_TIMEZONE); not converted to UTC.',
  })
  title!: string;

  @Column({ type: 'datetime', name: 'created', comment: 'When the record was stored, UTC.' })
  created!: Date;

  @Column({ type: 'datetime', name: 'changed', comment: 'When the record was stored, UTC (records are never changed).' })
  changed!: Date;

  @Column({ type: 'datetime', name: 'revision_timestamp', comment: 'When the record was stored, UTC.' })
  revisionTimestamp!: Date;

  @Column({
    type: 'decimal',
    name: 'field_battery_voltage',
    precision: 10,
    scale: 3,
    nullable: true,
    comment: 'Battery voltage, volts, rounded to 3 decimals; NULL when not sent.',
  })
  fieldBatteryVoltage!: string | number | null;

  @Column({ type: 'int', name: 'field_counter', nullable: true, comment: 'Event counter of the device; NULL when not sent.' })
  fieldCounter!: number | null;

  @Column({
    type: 'decimal',
    name: 'field_data',
    precision: 10,
    scale: 3,
    nullable: true,
    comment: 'Value the event carries (e.g. the bait level), rounded to 3 decimals; NULL when not sent.',
  })
  fieldData!: string | number | null;

  @Column({
    type: 'datetime',
    name: 'field_date',
    comment:
      'Device time of the event (metadata.time) as a UTC instant, cut to whole seconds; a time sent without an offset was read in SITE_TIMEZONE. Rendered in SITE_TIMEZONE.',
  })
  fieldDate!: Date;

  @Column({
    type: 'varchar',
    name: 'field_event',
    length: 32,
    ...ASCII,
    comment: 'Event: Sprung, Set, Vibration, Heartbeat or Baitlevel.',
  })
  fieldEvent!: string;

  @Column({
    type: 'varchar',
    name: 'field_gateway',
    length: 17,
    nullable: true,
    ...ASCII,
    comment: 'MAC address of the gateway, XX:XX:XX:XX:XX:XX upper-case; NULL when not sent.',
  })
  fieldGateway!: string | null;

  @Column({
    type: 'varchar',
    name: 'field_network',
    length: 255,
    nullable: true,
    ...UNICODE,
    comment: 'Network name as sent; NULL when not sent.',
  })
  fieldNetwork!: string | null;

  @Column({
    type: 'int',
    name: 'field_rssi',
    nullable: true,
    comment: 'Received signal strength at the first gateway, dBm; NULL when not sent.',
  })
  fieldRssi!: number | null;

  /**
   * Compared exactly: on MySQL a binary collation without trailing-space padding, which
   * ExactDeviceIds1764100000000 chose per server (utf8mb4_nopad_bin on MariaDB, utf8mb4_0900_bin on
   * MySQL 8), so no one collation can be named here.
   */
  @Column({ type: 'varchar', name: 'field_sensor_id', length: 255, comment: 'Device id (dev_id) as sent.' })
  devId!: string;

  @Column({ type: 'int', name: 'field_sequence', nullable: true, comment: 'Sequence number of the message; NULL when not sent.' })
  fieldSequence!: number | null;

  @Column({
    type: 'decimal',
    name: 'field_snr',
    precision: 10,
    scale: 3,
    nullable: true,
    comment: 'Signal-to-noise ratio at the first gateway, dB, rounded to 3 decimals; NULL when not sent.',
  })
  fieldSnr!: string | number | null;

  @Column({
    type: 'varchar',
    name: 'field_status',
    length: 32,
    nullable: true,
    ...ASCII,
    comment: 'Trap status: Sprung, Set or Baitlevel; NULL when not sent.',
  })
  fieldStatus!: string | null;

  @Column({
    type: 'varchar',
    name: 'field_tilt_sensor',
    length: 32,
    nullable: true,
    ...ASCII,
    comment: 'Tilt sensor: True, False, Fail or NotInstalled; NULL when not sent.',
  })
  fieldTiltSensor!: string | null;

  @Column({
    type: 'int',
    name: 'field_timeout',
    comment: 'Heartbeat period, seconds: -1 no heartbeat, 0 expired; 86400 when not sent.',
  })
  fieldTimeout!: number;

  /**
   * The network-server uplink the record came from, `<uid>:<network>:<uplink id>`; unique, so that a
   * delivery repeated on any instance stores nothing twice (docs/interface.md#repeated-deliveries).
   * Null for records submitted directly.
   */
  @Column({
    type: 'varchar',
    name: 'uplink_key',
    length: 255,
    nullable: true,
    ...ASCII,
    comment:
      'The uplink the record came from, <uid>:<network>:<id of the uplink>; unique, so a repeated delivery stores nothing twice. NULL for records submitted directly.',
  })
  uplinkKey!: string | null;

  /** The integration the record came through; null for records submitted directly. */
  @Column({
    type: 'int',
    name: 'integration_id',
    nullable: true,
    comment: 'integrations.id the record came through; NULL for records submitted directly.',
  })
  @ForeignKey(() => IntegrationEntity, { name: 'sensor_report_integration_fk', ...REFUSED })
  integrationId!: number | null;

  /** The request body exactly as received, so nothing a device sent is lost; never returned. */
  @Column({
    type: 'text',
    name: 'request_body',
    select: false,
    ...UNICODE,
    comment: 'The whole request body as received (JSON text), so nothing a device sent is lost; never returned.',
  })
  requestBody!: string;
}
