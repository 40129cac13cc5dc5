import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { ASCII, UNICODE } from '../database/text-columns.js';

/**
 * A content type of Drupal's (table `node_type`): one row, `sensor_report`, whose UUID every record
 * renders as `type.target_uuid`. Read with the query builder (sensor-record.service.ts); declared so
 * that `sensor_report.type` can name it as its foreign key.
 */
@Entity({ name: 'node_type', comment: 'Content types (Drupal bundles): one row, sensor_report.' })
@Index('node_type_uuid', ['uuid'], { unique: true })
export class NodeTypeEntity {
  @PrimaryColumn({ type: 'varchar', name: 'type', length: 32, ...ASCII, comment: 'Machine name of the bundle: sensor_report.' })
  type!: string;

  @Column({
    type: 'varchar',
    name: 'uuid',
    length: 36,
    ...ASCII,
    comment: 'UUID of the bundle, generated once per installation; every record renders it as type.target_uuid.',
  })
  uuid!: string;

  @Column({ type: 'varchar', name: 'name', length: 255, ...UNICODE, comment: 'Human-readable name of the bundle.' })
  name!: string;
}
