import type { MigrationInterface, QueryRunner } from 'typeorm';
import { fillFromRecords } from './1764000100000-CreateSensors.js';

/**
 * Device ids compared exactly on MySQL/MariaDB, as SQLite compares them: under utf8mb4_unicode_ci
 * `trap`, `TRAP`, `trap ` and `ｔｒａｐ` were one sensor, whose state each of them overwrote, and one
 * device's records were listed under another's (docs/interface.md#sensors). `sensor.dev_id` and
 * `sensor_report.field_sensor_id` take a binary collation without trailing-space padding where the
 * server has one, and the sensor table is filled again from the records, one row per device as sent.
 */
export class ExactDeviceIds1764100000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type !== 'mysql') return;
    await changeDeviceIdCollation(queryRunner, await exactCollation(queryRunner));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type !== 'mysql') return;
    await changeDeviceIdCollation(queryRunner, 'utf8mb4_unicode_ci');
  }
}

/** MariaDB's binary collation without padding, else MySQL 8's, else the padded binary one. */
async function exactCollation(queryRunner: QueryRunner): Promise<string> {
  const candidates = ['utf8mb4_nopad_bin', 'utf8mb4_0900_bin', 'utf8mb4_bin'];
  const rows = (await queryRunner.query(
    `SELECT COLLATION_NAME AS name FROM information_schema.COLLATIONS WHERE COLLATION_NAME IN (${candidates.map(() => '?').join(', ')})`,
    candidates,
  )) as Array<{ name: string }>;
  const available = new Set(rows.map((row) => row.name));
  return candidates.find((name) => available.has(name)) ?? 'utf8mb4_bin';
}

async function changeDeviceIdCollation(queryRunner: QueryRunner, collation: string): Promise<void> {
  // Emptied first: under the new collation the rows of devices the old one merged would be wrong, and
  // going back they may collide on the primary key.
  await queryRunner.query('DELETE FROM sensor');
  for (const [table, column] of [
    ['sensor_report', 'field_sensor_id'],
    ['sensor', 'dev_id'],
  ] as const) {
    const [{ comment }] = (await queryRunner.query(
      'SELECT COLUMN_COMMENT AS comment FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND COLUMN_NAME = ?',
      [table, column],
    )) as [{ comment: string }];
    await queryRunner.query(
      `ALTER TABLE \`${table}\` MODIFY \`${column}\` varchar(255) CHARACTER SET utf8mb4 COLLATE ${collation} NOT NULL COMMENT ?`,
      [comment],
    );
  }
  await queryRunner.query(fillFromRecords(true));
}
