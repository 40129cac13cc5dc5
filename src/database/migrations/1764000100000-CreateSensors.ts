import { type MigrationInterface, type QueryRunner, Table, type TableColumnOptions, TableIndex } from 'typeorm';

/**
 * The `sensor` table: one row per owner and device, kept by the writer in the transaction of every
 * record (docs/interface.md#sensors), and filled here from the records already stored, by the same
 * rules: "last" is the latest device time, then the highest nid; the trap is sprung when the latest
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
    // The list filters (docs/interface.md#get-api-sensorsensors), then the gauges' one covering scan.
    for (const columnNames of [
      ['uid', 'heartbeat_due'],
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

/** One statement: per (uid, dev_id), the counts and bounds of its records, its last record and its last trap status. */
function fillFromRecords(mysql: boolean): string {
  const due = mysql
    ? 'DATE_ADD(g.last_received, INTERVAL l.field_timeout SECOND)'
    : "strftime('%Y-%m-%d %H:%M:%f', g.last_received, '+' || l.field_timeout || ' seconds')";
  const latest = 'ROW_NUMBER() OVER (PARTITION BY uid, field_sensor_id ORDER BY field_date DESC, nid DESC)';
  return `INSERT INTO sensor (uid, dev_id, report_count, first_received, last_received, first_device_time, last_device_time,
      last_nid, last_event, last_status, last_battery_voltage, last_counter, last_tilt_sensor, heartbeat_period, heartbeat_due,
      sprung, trap_status_time, trap_status_nid)
    SELECT g.uid, l.field_sensor_id, g.report_count, g.first_received, g.last_received, g.first_device_time, l.field_date,
      l.nid, l.field_event, l.field_status, l.field_battery_voltage, l.field_counter, l.field_tilt_sensor, l.field_timeout,
      CASE WHEN l.field_timeout > 0 THEN ${due} END,
      CASE WHEN t.trap_status = 'Sprung' THEN 1 ELSE 0 END, t.field_date, t.nid
    FROM (SELECT uid, field_sensor_id, COUNT(*) AS report_count, MIN(created) AS first_received, MAX(created) AS last_received,
            MIN(field_date) AS first_device_time
          FROM sensor_report GROUP BY uid, field_sensor_id) g
    JOIN (SELECT uid, field_sensor_id, nid, field_date, field_event, field_status, field_battery_voltage, field_counter,
            field_tilt_sensor, field_timeout, ${latest} AS n
          FROM sensor_report) l
      ON l.uid = g.uid AND l.field_sensor_id = g.field_sensor_id AND l.n = 1
    LEFT JOIN (SELECT s.*, ${latest} AS n
               FROM (SELECT uid, field_sensor_id, nid, field_date,
                       CASE WHEN field_status IN ('Sprung', 'Set') THEN field_status
                            WHEN field_event IN ('Sprung', 'Set') THEN field_event END AS trap_status
                     FROM sensor_report) s
               WHERE s.trap_status IS NOT NULL) t
      ON t.uid = g.uid AND t.field_sensor_id = g.field_sensor_id AND t.n = 1`;
}
