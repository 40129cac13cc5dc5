import type { MigrationInterface, QueryRunner } from 'typeorm';
import { orderTimeSql } from '../../sensor/projection/record-order.js';

interface OrderTimeColumn {
  table: string;
  column: string;
  /** The column naming the record whose time it holds. */
  nid: string;
  nullable: boolean;
  /** The comment as the entity declares it now, and as it was. */
  comment: string;
  before: string;
}

const COLUMNS: OrderTimeColumn[] = [
  {
    table: 'sensor',
    column: 'last_device_time',
    nid: 'last_nid',
    nullable: false,
    comment:
      'Order time of the last record (field_date; created when field_date is over 300 s ahead of it): the latest, then the highest nid; UTC.',
    before: 'Device time (field_date) of the last record: the latest device time, then the highest nid; UTC.',
  },
  {
    table: 'sensor',
    column: 'last_battery_time',
    nid: 'last_battery_nid',
    nullable: true,
    comment: 'Order time of the latest record that carried a battery voltage, UTC; NULL when none did.',
    before: 'Device time (field_date) of the latest record that carried a battery voltage, UTC; NULL when none did.',
  },
  {
    table: 'sensor',
    column: 'trap_status_time',
    nid: 'trap_status_nid',
    nullable: true,
    comment: 'Order time of that latest record saying Sprung or Set, UTC; NULL when none did.',
    before: 'Device time of that latest record saying Sprung or Set, UTC; NULL when none did.',
  },
  {
    table: 'sprung_episodes',
    column: 'sprung_at',
    nid: 'sprung_nid',
    nullable: false,
    comment:
      'Order time of the report that sprung the trap (its device time, or its receipt when over 300 s ahead), UTC: the 24 hours run from it.',
    before: 'Device time of the report that sprung the trap, UTC: the 24 hours run from it.',
  },
  {
    table: 'sprung_episodes',
    column: 'reset_at',
    nid: 'reset_nid',
    nullable: true,
    comment: 'Order time of the Set report that ended it, UTC; NULL while the trap is sprung (the episode is open).',
    before: 'Device time of the Set report that ended it, UTC; NULL while the trap is sprung (the episode is open).',
  },
];

/**
 * The sensors' and episodes' times become order times (docs/interface.md#sensors): a device time more
 * than 300 s ahead of its record's receipt counts as the receipt. Each row's time is read again from
 * the record it names (by primary key; a record retention deleted leaves the time as it is), so that a
 * trap a device time far ahead holds sprung is reset by its next `Set`, and its 24 hours run from when
 * its report arrived. The records themselves keep their device times.
 */
export class OrderTimesOfClocksAhead1764750000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    const mysql = queryRunner.connection.options.type === 'mysql';
    for (const column of COLUMNS) {
      await setTimes(queryRunner, column, orderTimeSql('r', mysql));
      if (mysql) await describe(queryRunner, column, column.comment);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const mysql = queryRunner.connection.options.type === 'mysql';
    for (const column of COLUMNS) {
      await setTimes(queryRunner, column, 'r.field_date');
      if (mysql) await describe(queryRunner, column, column.before);
    }
  }
}

function setTimes(queryRunner: QueryRunner, { table, column, nid }: OrderTimeColumn, time: string): Promise<unknown> {
  return queryRunner.query(
    `UPDATE ${table} SET ${column} = COALESCE((SELECT ${time} FROM sensor_report r WHERE r.nid = ${table}.${nid}), ${column})`,
  );
}

function describe(queryRunner: QueryRunner, { table, column, nullable }: OrderTimeColumn, comment: string): Promise<unknown> {
  return queryRunner.query(`ALTER TABLE ${table} MODIFY ${column} DATETIME ${nullable ? 'NULL' : 'NOT NULL'} COMMENT ?`, [comment]);
}
