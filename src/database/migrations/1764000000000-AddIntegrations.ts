import {
  type MigrationInterface,
  type QueryRunner,
  Table,
  TableColumn,
  type TableColumnOptions,
  TableForeignKey,
  TableIndex,
} from 'typeorm';
import { keepingSqliteSequence } from './1763800200000-DescribeSchema.js';

const UPLINK_KEY_INDEX = new TableIndex({ name: 'sensor_report_uplink_key', columnNames: ['uplink_key'], isUnique: true });
// InnoDB needs an index on the referencing column; named so that `down` can drop it again.
const INTEGRATION_INDEX = new TableIndex({ name: 'sensor_report_integration_id', columnNames: ['integration_id'] });
const INTEGRATION_FOREIGN_KEY = 'sensor_report_integration_fk';

const USERNAME_COMMENT = 'User name as tried, trimmed and lower-cased (it need not exist); NULL for a refused integration key.';
/** The comment DescribeSchema gave the column, restored by `down`. */
const DESCRIBED_USERNAME_COMMENT = 'User name as tried, trimmed and lower-cased (it need not exist).';

/**
 * Network-server integrations (docs/interface.md#network-server-integrations): the `integrations`
 * table of API keys, the uplink each record came from on `sensor_report` (its key unique, so a
 * delivery repeated on any instance stores nothing twice), and failed integration keys counted in
 * `login_failures` by address only (no user name).
 */
export class AddIntegrations1764000000000 implements MigrationInterface {
  name = 'AddIntegrations1764000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const mysql = queryRunner.connection.options.type === 'mysql';
    const columns = schemaColumns(mysql);

    await queryRunner.createTable(
      new Table({
        name: 'integrations',
        columns: columns.integrations,
        ...(mysql
          ? {
              engine: 'InnoDB',
              comment: 'Network-server integrations: long-lived API keys by digest, each for one user and one network server.',
            }
          : {}),
      }),
      true,
    );
    // TypeORM has no table character set option.
    if (mysql) await queryRunner.query('ALTER TABLE `integrations` DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci');
    await queryRunner.createIndex(
      'integrations',
      new TableIndex({ name: 'integrations_key_hash', columnNames: ['key_hash'], isUnique: true }),
    );
    await queryRunner.createIndex('integrations', new TableIndex({ name: 'integrations_uid', columnNames: ['uid'] }));
    await queryRunner.createForeignKey(
      'integrations',
      new TableForeignKey({
        name: 'integrations_uid_fk',
        columnNames: ['uid'],
        referencedTableName: 'users',
        referencedColumnNames: ['uid'],
        onDelete: 'CASCADE',
      }),
    );

    const reportKey = new TableForeignKey({
      name: INTEGRATION_FOREIGN_KEY,
      columnNames: ['integration_id'],
      referencedTableName: 'integrations',
      referencedColumnNames: ['id'],
      onDelete: 'RESTRICT',
      onUpdate: 'RESTRICT',
    });
    if (mysql) {
      await queryRunner.addColumns('sensor_report', columns.sensorReport);
      await queryRunner.createIndex('sensor_report', UPLINK_KEY_INDEX);
      await queryRunner.createIndex('sensor_report', INTEGRATION_INDEX);
      // The column is new and empty, so there is nothing to check: added without the row check, InnoDB
      // adds the key in place instead of copying the table (as DescribeSchema does for the others).
      await queryRunner.query('SET foreign_key_checks = 0');
      try {
        await queryRunner.createForeignKey('sensor_report', reportKey);
      } finally {
        await queryRunner.query('SET foreign_key_checks = 1');
      }
    } else {
      // SQLite rebuilds the table for each; the nid counter is kept (see keepingSqliteSequence).
      await keepingSqliteSequence(queryRunner, () => queryRunner.addColumns('sensor_report', columns.sensorReport));
      await keepingSqliteSequence(queryRunner, () => queryRunner.createForeignKey('sensor_report', reportKey));
      await queryRunner.createIndex('sensor_report', UPLINK_KEY_INDEX);
      await queryRunner.createIndex('sensor_report', INTEGRATION_INDEX);
    }

    await queryRunner.changeColumn('login_failures', 'username', usernameColumn(mysql, true));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const mysql = queryRunner.connection.options.type === 'mysql';
    await queryRunner.query('DELETE FROM login_failures WHERE username IS NULL');
    await queryRunner.changeColumn('login_failures', 'username', usernameColumn(mysql, false));

    const table = await queryRunner.getTable('sensor_report');
    const reportKey = table!.foreignKeys.find((key) => key.name === INTEGRATION_FOREIGN_KEY);
    const dropColumns = async () => {
      if (reportKey) await queryRunner.dropForeignKey('sensor_report', reportKey);
      await queryRunner.dropIndex('sensor_report', UPLINK_KEY_INDEX.name!);
      await queryRunner.dropIndex('sensor_report', INTEGRATION_INDEX.name!);
      await queryRunner.dropColumns('sensor_report', ['uplink_key', 'integration_id']);
    };
    await (mysql ? dropColumns() : keepingSqliteSequence(queryRunner, dropColumns));
    await queryRunner.dropTable('integrations', true, true, true);
  }
}

/** The new columns, with their MySQL collations and comments (SQLite has neither). */
function schemaColumns(mysql: boolean): { integrations: TableColumnOptions[]; sensorReport: TableColumn[] } {
  const described = (column: TableColumnOptions, comment: string, collation?: 'ascii' | 'utf8mb4'): TableColumnOptions => {
    if (!mysql) return column;
    const characters =
      collation === 'ascii'
        ? { charset: 'ascii', collation: 'ascii_bin' }
        : collation === 'utf8mb4'
          ? { charset: 'utf8mb4', collation: 'utf8mb4_unicode_ci' }
          : {};
    return { ...column, ...characters, comment };
  };
  const varchar = (name: string, length: number, nullable = false): TableColumnOptions => ({
    name,
    type: 'varchar',
    length: String(length),
    isNullable: nullable,
  });
  return {
    integrations: [
      described(
        { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
        'Integration id, as in integration:revoke --id, sensor_report.integration_id and the metrics label.',
      ),
      described({ name: 'uid', type: 'integer' }, 'users.uid of the user whose records the integration creates.'),
      described(varchar('network', 16), 'Network server: tts (The Things Stack v3) or chirpstack (ChirpStack v4).', 'ascii'),
      described(
        varchar('label', 255, true),
        "Name the operator gave the integration, stored as its records' field_network; NULL: the network server's name is stored instead.",
        'utf8mb4',
      ),
      described(
        varchar('dev_id_source', 8),
        'What dev_id is taken from: eui (the DevEUI, upper-case hex) or name (the device id or name).',
        'ascii',
      ),
      described(varchar('key_hash', 64), 'Hex SHA-256 of the API key; the key itself is never stored.', 'ascii'),
      described({ name: 'created', type: 'datetime' }, 'When the integration was created, UTC.'),
      described(
        { name: 'last_used_at', type: 'datetime', isNullable: true },
        'When the key was last accepted, UTC, to within a minute; NULL: never.',
      ),
      described(
        { name: 'revoked_at', type: 'datetime', isNullable: true },
        'When the key was revoked (refused on every instance within 5 s), UTC; NULL while in force.',
      ),
    ],
    sensorReport: [
      new TableColumn(
        described(
          varchar('uplink_key', 255, true),
          'The uplink the record came from, <uid>:<network>:<id of the uplink>; unique, so a repeated delivery stores nothing twice. NULL for records submitted directly.',
          'ascii',
        ),
      ),
      new TableColumn(
        described(
          { name: 'integration_id', type: 'integer', isNullable: true },
          'integrations.id the record came through; NULL for records submitted directly.',
        ),
      ),
    ],
  };
}

function usernameColumn(mysql: boolean, nullable: boolean): TableColumn {
  return new TableColumn({
    name: 'username',
    type: 'varchar',
    length: '255',
    isNullable: nullable,
    // As CreateAuthTables made it: case-insensitive on both engines.
    ...(mysql
      ? { charset: 'utf8mb4', collation: 'utf8mb4_unicode_ci', comment: nullable ? USERNAME_COMMENT : DESCRIBED_USERNAME_COMMENT }
      : { collation: 'NOCASE' }),
  });
}
