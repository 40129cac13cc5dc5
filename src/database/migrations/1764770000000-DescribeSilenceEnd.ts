import type { MigrationInterface, QueryRunner } from 'typeorm';
import { type DescribedColumn, describeColumn } from './1764760000000-DescribeOrderTimes.js';

const SILENT_SINCE: DescribedColumn = {
  table: 'sensor',
  column: 'silent_since',
  definition: 'DATETIME NULL',
  comment: 'When the sensor was found overdue and `silent` raised, UTC; NULL again once a record arrives, late or not.',
  before: 'When the sensor was found overdue and `silent` raised, UTC; NULL again once a record (not a late one) arrives.',
};

/**
 * The comment of `sensor.silent_since`: any record that arrives ends a silence, a late one too, since
 * silence is measured by arrival (docs/interface.md#sensor-transitions). Comments exist only on
 * MySQL/MariaDB; on SQLite there is nothing to do.
 */
export class DescribeSilenceEnd1764770000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type === 'mysql') await describeColumn(queryRunner, SILENT_SINCE, SILENT_SINCE.comment);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type === 'mysql') await describeColumn(queryRunner, SILENT_SINCE, SILENT_SINCE.before);
  }
}
