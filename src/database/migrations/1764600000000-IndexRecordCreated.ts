import { type MigrationInterface, type QueryRunner, TableIndex } from 'typeorm';

const CREATED_INDEX = new TableIndex({ name: 'sensor_report_created', columnNames: ['created'] });

/**
 * Retention (docs/operations.md#retention) finds the records older than its cut, and the metrics the
 * oldest record, by `created`: an index, so that neither reads the whole table. On MySQL 8 and MariaDB
 * 10.6 an index is added in place, with writes going on.
 */
export class IndexRecordCreated1764600000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createIndex('sensor_report', CREATED_INDEX);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('sensor_report', CREATED_INDEX.name!);
  }
}
