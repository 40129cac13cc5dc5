import type { MigrationInterface, QueryRunner } from 'typeorm';
import { latestRecordFirst, orderTimeSql } from '../../sensor/projection/record-order.js';

const NEW_COLUMNS: Array<[name: string, type: string, comment: string]> = [
  [
    'last_battery_time',
    'datetime',
    'Device time (field_date) of the latest record that carried a battery voltage, UTC; NULL when none did.',
  ],
  ['last_battery_nid', 'integer', 'sensor_report.nid of that record; NULL when none did.'],
  [
    'silent_since',
    'datetime',
    'When the sensor was found overdue and `silent` raised, UTC; NULL again once a record (not a late one) arrives.',
  ],
];

/**
 * The sensor's last known battery voltage, and when it was reported (docs/interface.md#sensors):
 * `last_battery_voltage` now holds the value of the latest record that carried one, which
 * `last_battery_time` and `last_battery_nid` name; filled here from the records already stored. And
 * `silent_since`, set when the sensor is found silent and cleared by its next record, so that the
 * alerts raise `silent` and `back` once each.
 */
export class SensorBatteryAndSilence1764500000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    const mysql = queryRunner.connection.options.type === 'mysql';
    // Plain ALTER TABLE: TypeORM's addColumns rebuilds the whole table on SQLite, where ADD COLUMN does.
    for (const [column, type, comment] of NEW_COLUMNS) {
      await queryRunner.query(`ALTER TABLE sensor ADD COLUMN ${column} ${type} NULL${mysql ? ' COMMENT ?' : ''}`, mysql ? [comment] : []);
    }
    if (mysql) {
      await queryRunner.query(
        "ALTER TABLE sensor MODIFY last_battery_voltage DECIMAL(10,3) NULL COMMENT 'field_battery_voltage of the latest record that carried one, volts (the last known voltage); NULL when none did.'",
      );
    }
    const ofDevice = 'r.uid = sensor.uid AND r.field_sensor_id = sensor.dev_id';
    await queryRunner.query(
      `UPDATE sensor SET last_battery_nid = (SELECT r.nid FROM sensor_report r
         WHERE ${ofDevice} AND r.field_battery_voltage IS NOT NULL ORDER BY ${latestRecordFirst('r', mysql)} LIMIT 1)`,
    );
    for (const [column, source] of [
      ['last_battery_voltage', 'r.field_battery_voltage'],
      ['last_battery_time', orderTimeSql('r', mysql)],
    ]) {
      await queryRunner.query(
        `UPDATE sensor SET ${column} = (SELECT ${source} FROM sensor_report r WHERE r.nid = sensor.last_battery_nid)`,
      );
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'UPDATE sensor SET last_battery_voltage = (SELECT r.field_battery_voltage FROM sensor_report r WHERE r.nid = sensor.last_nid)',
    );
    if (queryRunner.connection.options.type === 'mysql') {
      await queryRunner.query(
        "ALTER TABLE sensor MODIFY last_battery_voltage DECIMAL(10,3) NULL COMMENT 'field_battery_voltage of the last record, volts; NULL when it had none.'",
      );
    }
    for (const [column] of [...NEW_COLUMNS].reverse()) await queryRunner.query(`ALTER TABLE sensor DROP COLUMN ${column}`);
  }
}
