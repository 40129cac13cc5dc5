import { type MigrationInterface, type QueryRunner, Table, type TableColumnOptions, TableIndex } from 'typeorm';
import { orderTimeSql } from '../../sensor/projection/record-order.js';

/**
 * The `sensor` table: one row per owner and device, kept by the writer in the transaction of every
 * record (docs/interface.md#sensors), and filled here from the records already stored, by the same
 * rules: "last" is the latest order time (record-order.ts), then the highest nid; the trap is sprung when the latest
 * report that said Sprung or Set said Sprung.
 */
export class CreateSensors1764000100000 implements MigrationInterface {
  name = 'CreateSensors1764000100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const mysql = queryRunner.connection.options.type === 'mysql';
    const ascii = mysql ? { charset: 'ascii', collation: 'ascii_bin' } : {};
    const column = (name: string, type: string, comment: string, more: Partial<TableColumnOptions> = {}): TableColumnOptions => ({
      name,
      type,
      comment,
      ...more,
    });
    const vocabulary = (name: string, comment: string, isNullable = false) =>
      column(name, 'varchar', comment, { length: '32', isNullable, ...ascii });
    const instant = (name: string, comment: string, isNullable = false) => column(name, 'datetime', comment, { isNullable });

    await queryRunner.createTable(
      new Table({
        name: 'sensor',
        comment: 'One row per owner and device (uid, dev_id): its latest state, kept in the transaction that stores each of its records.',
        ...(mysql ? { engine: 'InnoDB' } : {}),
        columns: [
          column('uid', 'integer', 'users.uid of the owner: the user whose token submitted the records.', { isPrimary: true }),
          // Compared as sensor_report.field_sensor_id is, so that a sensor and its records agree.
          column('dev_id', 'varchar', 'Device id (dev_id) as its reports spelled it; with uid, the key.', {
            isPrimary: true,
            length: '255',
            ...(mysql ? { charset: 'utf8mb4', collation: 'utf8mb4_unicode_ci' } : {}),
          }),
          column('report_count', 'integer', 'Number of records of this device and owner.'),
          instant('first_received', 'When the first record arrived (server time), UTC.'),
          instant('last_received', 'When the latest record arrived (server time), UTC; overdue is measured from it.'),
          instant('first_device_time', 'Earliest device time (field_date) among the records, UTC.'),
          instant('last_device_time', 'Device time (field_date) of the last record: the latest device time, then the highest nid; UTC.'),
          column('last_nid', 'integer', 'sensor_report.nid of the last record (latest device time, then highest nid).'),
          vocabulary('last_event', 'field_event of the last record: Sprung, Set, Vibration, Heartbeat or Baitlevel.'),
          vocabulary('last_status', 'field_status of the last record; NULL when it had none.', true),
          column('last_battery_voltage', 'decimal', 'field_battery_voltage of the last record, volts; NULL when it had none.', {
            precision: 10,
            scale: 3,
            isNullable: true,
          }),
          column('last_counter', 'integer', 'field_counter of the last record; NULL when it had none.', { isNullable: true }),
          vocabulary('last_tilt_sensor', 'field_tilt_sensor of the last record; NULL when it had none.', true),
          column('heartbeat_period', 'integer', 'field_timeout of the last record, seconds: -1 no heartbeat, 0 expired.'),
          instant(
            'heartbeat_due',
            'last_received + heartbeat_period, UTC, when heartbeat_period > 0 (else NULL); overdue once SENSOR_HEARTBEAT_GRACE has passed too.',
            true,
          ),
          column('sprung', 'boolean', '1 when the latest record (by device time, then nid) that said Sprung or Set said Sprung.'),
          instant('trap_status_time', 'Device time of that latest record saying Sprung or Set, UTC; NULL when none did.', true),
          column('trap_status_nid', 'integer', 'sensor_report.nid of that record; NULL when none did.', { isNullable: true }),
        ],
        // A user who has records cannot be deleted (sensor_report refers to users the same way).
        foreignKeys: [
          {
            name: 'sensor_uid_fk',
            columnNames: ['uid'],
            referencedTableName: 'users',
            referencedColumnNames: ['uid'],
            onDelete: 'RESTRICT',
            onUpdate: 'RESTRICT',
          },
        ],
      }),
    );
    if (mysql) await queryRunner.query('ALTER TABLE `sensor` DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci');
    // The list's equality filters keep dev_id order; ok and overdue are filtered along the primary key,
    // since the user's sensors are read in dev_id order anyway. Then the gauges' one covering scan.
    for (const columnNames of [
      ['uid', 'heartbeat_period', 'dev_id'],
      ['uid', 'sprung', 'dev_id'],
      ['heartbeat_due', 'heartbeat_period', 'sprung'],
    ]) {
      await queryRunner.createIndex('sensor', new TableIndex({ name: `sensor_${columnNames.join('_')}`, columnNames }));
    }
    // Keyset reads of a user's records in (changed, nid) order (docs/interface.md#get-api-sensorsensor-records).
    await queryRunner.createIndex(
      'sensor_report',
      new TableIndex({ name: 'sensor_report_uid_changed', columnNames: ['uid', 'changed', 'nid'] }),
    );
    await queryRunner.query(fillFromRecords(mysql));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('sensor_report', 'sensor_report_uid_changed');
    await queryRunner.dropTable('sensor', true, true, true);
  }
}

/**
 * One statement, one pass over the records (window functions, no join of derived tables, which
 * MariaDB would join by scanning): per (uid, dev_id) the counts and bounds, the last record's values,
 * and the latest record saying Sprung or Set (records without one sort after those with one); the
 * times of both are their order times, as the writer keeps them.
 */
export function fillFromRecords(mysql: boolean): string {
  const due = mysql
    ? 'DATE_ADD(x.last_received, INTERVAL x.field_timeout SECOND)'
    : "strftime('%Y-%m-%d %H:%M:%f', x.last_received, '+' || x.field_timeout || ' seconds')";
  const device = 'PARTITION BY uid, field_sensor_id';
  const trapOrder = `(${device} ORDER BY (row_trap_status IS NULL), order_time DESC, nid DESC)`;
  return `INSERT INTO sensor (uid, dev_id, report_count, first_received, last_received, first_device_time, last_device_time,
      last_nid, last_event, last_status, last_battery_voltage, last_counter, last_tilt_sensor, heartbeat_period, heartbeat_due,
      sprung, trap_status_time, trap_status_nid)
    SELECT x.uid, x.field_sensor_id, x.report_count, x.first_received, x.last_received, x.first_device_time, x.order_time,
      x.nid, x.field_event, x.field_status, x.field_battery_voltage, x.field_counter, x.field_tilt_sensor, x.field_timeout,
      CASE WHEN x.field_timeout > 0 THEN ${due} END,
      CASE WHEN x.trap_status = 'Sprung' THEN 1 ELSE 0 END,
      CASE WHEN x.trap_status IS NOT NULL THEN x.trap_time END,
      CASE WHEN x.trap_status IS NOT NULL THEN x.trap_nid END
    FROM (SELECT r.*,
            ROW_NUMBER() OVER (${device} ORDER BY order_time DESC, nid DESC) AS n,
            COUNT(*) OVER (${device}) AS report_count,
            MIN(created) OVER (${device}) AS first_received,
            MAX(created) OVER (${device}) AS last_received,
            MIN(field_date) OVER (${device}) AS first_device_time,
            FIRST_VALUE(row_trap_status) OVER ${trapOrder} AS trap_status,
            FIRST_VALUE(order_time) OVER ${trapOrder} AS trap_time,
            FIRST_VALUE(nid) OVER ${trapOrder} AS trap_nid
          FROM (SELECT uid, field_sensor_id, nid, created, field_date, field_event, field_status, field_battery_voltage, field_counter,
                  field_tilt_sensor, field_timeout, ${orderTimeSql('sensor_report', mysql)} AS order_time,
                  CASE WHEN field_status IN ('Sprung', 'Set') THEN field_status
                       WHEN field_event IN ('Sprung', 'Set') THEN field_event END AS row_trap_status
                FROM sensor_report) r) x
    WHERE x.n = 1`;
}
