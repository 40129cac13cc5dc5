import type { MigrationInterface, QueryRunner } from 'typeorm';

export interface DescribedColumn {
  table: string;
  column: string;
  /** The column's type and nullability, as MODIFY restates them. */
  definition: string;
  /** The comment as the entity declares it now, and as it was. */
  comment: string;
  before: string;
}

const COLUMNS: DescribedColumn[] = [
  {
    table: 'sensor',
    column: 'last_nid',
    definition: 'INT NOT NULL',
    comment: 'sensor_report.nid of the last record (latest order time, then highest nid).',
    before: 'sensor_report.nid of the last record (latest device time, then highest nid).',
  },
  {
    table: 'sensor',
    column: 'sprung',
    definition: 'TINYINT(1) NOT NULL',
    comment: '1 when the latest record (by order time, then nid) that said Sprung or Set said Sprung.',
    before: '1 when the latest record (by device time, then nid) that said Sprung or Set said Sprung.',
  },
  {
    table: 'alert_notifications',
    column: 'occurred_at',
    definition: 'DATETIME NOT NULL',
    comment:
      "When the event happened, UTC: the record's order time (its device time, or its receipt when over 300 s ahead), or the clock's for silent and the 24-hour clock.",
    before: "When the event happened, UTC: the record's device time, or the clock's for silent and the 24-hour clock.",
  },
];

/**
 * The comments of the columns that OrderTimesOfClocksAhead left saying "device time" where the rule is
 * the order time (docs/interface.md#sensors): the admins read the schema with MySQL's own tools.
 * Comments exist only on MySQL/MariaDB; on SQLite there is nothing to do.
 */
export class DescribeOrderTimes1764760000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type !== 'mysql') return;
    for (const column of COLUMNS) await describeColumn(queryRunner, column, column.comment);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type !== 'mysql') return;
    for (const column of COLUMNS) await describeColumn(queryRunner, column, column.before);
  }
}

export function describeColumn(
  queryRunner: QueryRunner,
  { table, column, definition }: DescribedColumn,
  comment: string,
): Promise<unknown> {
  return queryRunner.query(`ALTER TABLE ${table} MODIFY ${column} ${definition} COMMENT ?`, [comment]);
}
