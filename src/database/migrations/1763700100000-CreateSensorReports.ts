import { randomUUID } from 'node:crypto';
import { type MigrationInterface, type QueryRunner, Table, type TableColumnOptions, TableIndex } from 'typeorm';

/** The `sensor_report` table, and the `node_type` row whose UUID every report's `type` reference carries. */
export class CreateSensorReports1763700100000 implements MigrationInterface {
  name = 'CreateSensorReports1763700100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const mysql = queryRunner.connection.options.type === 'mysql';
    const ascii = (name: string, length: number, nullable = false): TableColumnOptions => ({
      name,
      type: 'varchar',
      length: String(length),
      isNullable: nullable,
      ...(mysql ? { charset: 'ascii', collation: 'ascii_bin' } : {}),
    });
    const utf8mb4 = mysql ? { charset: 'utf8mb4', collation: 'utf8mb4_unicode_ci' } : {};
    const text = (name: string, length: number, nullable = false): TableColumnOptions => ({
      name,
      type: 'varchar',
      length: String(length),
      isNullable: nullable,
      ...utf8mb4,
    });
    const integer = (name: string, nullable = false): TableColumnOptions => ({ name, type: 'integer', isNullable: nullable });
    const flag = (name: string): TableColumnOptions => ({ name, type: 'boolean' });
    const instant = (name: string): TableColumnOptions => ({ name, type: 'datetime' });
    const decimal = (name: string): TableColumnOptions => ({ name, type: 'decimal', precision: 10, scale: 3, isNullable: true });
    // 64 KiB of UTF-8 is one byte more than a MySQL TEXT holds.
    const longText = (name: string): TableColumnOptions => ({
      name,
      type: mysql ? 'mediumtext' : 'text',
      ...utf8mb4,
    });
    const table = (name: string, columns: TableColumnOptions[]) => new Table({ name, columns, ...(mysql ? { engine: 'InnoDB' } : {}) });

    await queryRunner.createTable(
      table('node_type', [{ ...ascii('type', 32), isPrimary: true }, ascii('uuid', 36), text('name', 255)]),
      true,
    );
    await queryRunner.createIndex('node_type', new TableIndex({ name: 'node_type_uuid', columnNames: ['uuid'], isUnique: true }));
    await queryRunner.manager
      .createQueryBuilder()
      .insert()
      .into('node_type', ['type', 'uuid', 'name'])
      .values({ type: 'sensor_report', uuid: randomUUID(), name: 'Sensor report' })
      .execute();

    await queryRunner.createTable(
      table('sensor_report', [
        { name: 'nid', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
        ascii('uuid', 36),
        integer('vid', true),
        ascii('type', 32),
        ascii('langcode', 12),
        flag('status'),
        flag('promote'),
        flag('sticky'),
        flag('default_langcode'),
        flag('revision_translation_affected'),
        { name: 'revision_log', type: 'text', isNullable: true, ...utf8mb4 },
        integer('uid'),
        integer('revision_uid'),
        text('title', 512),
        instant('created'),
        instant('changed'),
        instant('revision_timestamp'),
        decimal('field_battery_voltage'),
        integer('field_counter', true),
        decimal('field_data'),
        instant('field_date'),
        ascii('field_event', 32),
        ascii('field_gateway', 17, true),
        text('field_network', 255, true),
        integer('field_rssi', true),
        text('field_sensor_id', 255),
        integer('field_sequence', true),
        decimal('field_snr'),
        ascii('field_status', 32, true),
        ascii('field_tilt_sensor', 32, true),
        integer('field_timeout'),
        longText('request_body'),
      ]),
      true,
    );
    await queryRunner.createIndex('sensor_report', new TableIndex({ name: 'sensor_report_uuid', columnNames: ['uuid'], isUnique: true }));
    await queryRunner.createIndex(
      'sensor_report',
      new TableIndex({ name: 'sensor_report_sensor_date', columnNames: ['field_sensor_id', 'field_date'] }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('sensor_report', true);
    await queryRunner.dropTable('node_type', true);
  }
}
