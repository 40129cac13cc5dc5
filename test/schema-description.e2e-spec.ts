import { createConnection } from 'mysql2/promise';
import { join } from 'node:path';
import { DataSource, type MigrationInterface } from 'typeorm';
import type { DatabaseConfig } from '../src/config/app-config.js';
import { buildDataSourceOptions } from '../src/database/data-source-options.js';
import { quietDatabaseLogger } from '../src/database/database-logger.js';
import { initializeDataSource } from '../src/database/initialize-data-source.js';
import { migrations } from '../src/database/migrations/index.js';
import { scratchDirectory } from './utils/built-process.js';
import { describeOn } from './utils/engine.js';

const testDatabaseUrl = process.env.DATABASE_URL ?? 'sqlite::memory:';
const onMysql = testDatabaseUrl.startsWith('mysql://');
const DESCRIBE_SCHEMA = 'DescribeSchema1763800200000';
const ADD_INTEGRATIONS = 'AddIntegrations1764000000000';
const DESCRIBE_ORDER_TIMES = 'DescribeOrderTimes1764760000000';
const DESCRIBE_SILENCE_END = 'DescribeSilenceEnd1764770000000';
const indexOf = (name: string) => migrations.findIndex((migration) => new migration().constructor.name === name);
const BEFORE = migrations.slice(0, indexOf(DESCRIBE_SCHEMA));
const THROUGH_DESCRIBE = migrations.slice(0, indexOf(DESCRIBE_SCHEMA) + 1);
const THROUGH_INTEGRATIONS = migrations.slice(0, indexOf(ADD_INTEGRATIONS) + 1);

/** Columns kept ascii_bin on purpose: identifiers, digests and fixed vocabularies. */
const ASCII_COLUMNS = [
  'leases.holder',
  'leases.name',
  'login_failures.address',
  'node_type.type',
  'node_type.uuid',
  'oauth_access_tokens.client_id',
  'oauth_access_tokens.family_id',
  'oauth_access_tokens.jti',
  'oauth_clients.client_id',
  'oauth_clients.secret_hash',
  'oauth_refresh_tokens.client_id',
  'oauth_refresh_tokens.family_id',
  'oauth_refresh_tokens.token_hash',
  'sensor_report.field_event',
  'sensor_report.field_gateway',
  'sensor_report.field_status',
  'sensor_report.field_tilt_sensor',
  'sensor_report.langcode',
  'sensor_report.type',
  'sensor_report.uuid',
  'users.pass',
  'users.uuid',
];
/** The same, of the sensor table (CreateSensors1764000100000). */
const SENSOR_ASCII_COLUMNS = ['sensor.last_event', 'sensor.last_status', 'sensor.last_tilt_sensor'];
/** The identifiers and digests AddIntegrations adds, ascii_bin as the others. */
const INTEGRATION_ASCII_COLUMNS = [
  'integrations.dev_id_source',
  'integrations.key_hash',
  'integrations.network',
  'sensor_report.uplink_key',
];
/** The signing keys' ids and PEM texts (CreateSigningKeys1764400100000). */
const SIGNING_KEY_ASCII_COLUMNS = ['oauth_signing_keys.kid', 'oauth_signing_keys.private_key', 'oauth_signing_keys.public_key'];
/** The alerts' vocabularies, secrets and claims (CreateAlerts1764600100000). */
const ALERT_ASCII_COLUMNS = [
  'alerts.channel',
  'alerts.escalate_channel',
  'alerts.events',
  'alerts.format',
  'alerts.secret',
  'alert_notifications.claimed_by',
  'alert_notifications.dedupe_key',
  'alert_notifications.event',
  'alert_notifications.recipient',
  'alert_notifications.status',
];
const REPORT_FOREIGN_KEYS = [
  { column: 'revision_uid', table: 'users', referenced: 'uid' },
  { column: 'type', table: 'node_type', referenced: 'type' },
  { column: 'uid', table: 'users', referenced: 'uid' },
];

/** A user and two records of theirs, written with plain SQL so that the schema alone is under test. */
async function seed(dataSource: DataSource): Promise<void> {
  await dataSource.query(
    "INSERT INTO users (uuid, name, pass, status, may_create_sensor_records, created, changed) VALUES ('9e8d7c6b-5a49-4382-b716-05f4e3d2c1b0', 'gateway-01', 'x', 1, 1, '2026-01-01 00:00:00', '2026-01-01 00:00:00')",
  );
  const [{ uid }] = (await dataSource.query("SELECT uid FROM users WHERE name = 'gateway-01'")) as [{ uid: number }];
  for (const uuid of ['0b1c2d3e-4f50-4617-a8b9-cadbecfd0e1f', '1b1c2d3e-4f50-4617-a8b9-cadbecfd0e1f']) {
    await dataSource.query(
      'INSERT INTO sensor_report (uuid, vid, type, langcode, status, promote, sticky, default_langcode, revision_translation_affected, uid, revision_uid, title, created, changed, revision_timestamp, field_date, field_event, field_sensor_id, field_timeout, request_body) ' +
        "VALUES (?, NULL, 'sensor_report', 'en', 1, 0, 0, 1, 1, ?, ?, 'Sensor report: trap-17 (2021-01-15 09:30)', '2021-01-14 20:31:05', '2021-01-14 20:31:05', '2021-01-14 20:31:05', '2021-01-14 20:30:00', 'Heartbeat', 'trap-17', 86400, '{}')",
      [uuid, uid, uid],
    );
  }
}

/**
 * The migration that describes the schema, applied to a database the earlier migrations built (and
 * holding records), then reverted: on MariaDB/MySQL in a scratch database created with the server's
 * usual default collation, on SQLite in a scratch file.
 */
describe(`Migration ${DESCRIBE_SCHEMA}`, () => {
  let database: DatabaseConfig;
  let dropScratch: () => Promise<void>;
  let dataSource: DataSource | undefined;

  /** Opens the scratch database, applying `list` (none: as it is). */
  const open = async (list: Array<new () => MigrationInterface> = []) => {
    if (dataSource?.isInitialized) await dataSource.destroy();
    dataSource = undefined;
    dataSource = await initializeDataSource({ ...buildDataSourceOptions(database), migrations: list, logger: quietDatabaseLogger });
    return dataSource;
  };

  // Each test starts from an empty scratch database.
  beforeEach(async () => {
    if (onMysql) {
      const url = new URL(testDatabaseUrl);
      const name = `${decodeURIComponent(url.pathname.slice(1))}_schema`;
      url.pathname = '/';
      const admin = await createConnection({ uri: url.toString() });
      await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
      // MariaDB's default collation, which the earlier migrations left on some tables.
      await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci`);
      url.pathname = `/${name}`;
      database = { type: 'mysql', url: url.toString(), migrationsRun: true, poolSize: 2, requestTimeoutMs: 3000 };
      dropScratch = async () => {
        await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
        await admin.end();
      };
    } else {
      const directory = scratchDirectory('sensor-records-schema-');
      database = { type: 'sqlite', path: join(directory.path, 'schema.sqlite'), migrationsRun: true, requestTimeoutMs: 3000 };
      dropScratch = async () => directory.remove();
    }
  });

  afterEach(async () => {
    await dataSource?.destroy();
    dataSource = undefined;
    await dropScratch();
  });

  describeOn('mysql', 'on MariaDB/MySQL', () => {
    const schema = () => new URL((database as { url: string }).url).pathname.slice(1);
    const columns = async () =>
      (await dataSource!.query(
        'SELECT TABLE_NAME AS tableName, COLUMN_NAME AS name, COLUMN_TYPE AS type, IS_NULLABLE AS nullable, COLUMN_DEFAULT AS defaultValue, EXTRA AS extra, ' +
          'COLLATION_NAME AS collation, COLUMN_COMMENT AS comment FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? ORDER BY TABLE_NAME, ORDINAL_POSITION',
        [schema()],
      )) as Array<Record<string, string | null>>;
    const tables = async () =>
      (await dataSource!.query(
        'SELECT TABLE_NAME AS name, TABLE_COLLATION AS collation, TABLE_COMMENT AS comment FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? ORDER BY TABLE_NAME',
        [schema()],
      )) as Array<Record<string, string>>;
    const reportForeignKeys = async () =>
      (await dataSource!.query(
        'SELECT k.COLUMN_NAME AS `column`, k.REFERENCED_TABLE_NAME AS `table`, k.REFERENCED_COLUMN_NAME AS referenced, r.DELETE_RULE AS onDelete ' +
          'FROM information_schema.KEY_COLUMN_USAGE k JOIN information_schema.REFERENTIAL_CONSTRAINTS r ON r.CONSTRAINT_SCHEMA = k.CONSTRAINT_SCHEMA AND r.CONSTRAINT_NAME = k.CONSTRAINT_NAME ' +
          "WHERE k.TABLE_SCHEMA = ? AND k.TABLE_NAME = 'sensor_report' ORDER BY k.COLUMN_NAME",
        [schema()],
      )) as Array<Record<string, string>>;
    const definitions = (rows: Array<Record<string, string | null>>) =>
      rows.map(({ comment: _comment, collation: _collation, ...rest }) => rest);

    it('comments every table and column, sets one collation, adds the foreign keys, and changes no column otherwise; down takes them away', async () => {
      await seed(await open(BEFORE));
      const before = await columns();
      expect((await tables()).map((table) => table.collation)).toContain('utf8mb4_general_ci');

      await open(THROUGH_DESCRIBE);

      const after = await columns();
      expect(definitions(after)).toEqual(definitions(before));
      expect(after.filter((column) => !column.comment)).toEqual([]);
      const described = await tables();
      expect(described.map((table) => table.name)).toEqual([
        'leases',
        'login_failures',
        'node_type',
        'oauth_access_tokens',
        'oauth_clients',
        'oauth_refresh_tokens',
        'schema_migrations',
        'sensor_report',
        'users',
      ]);
      expect(described.filter((table) => !table.comment || table.collation !== 'utf8mb4_unicode_ci')).toEqual([]);
      const textColumns = after.filter((column) => column.collation !== null);
      expect(
        textColumns
          .filter((column) => column.collation === 'ascii_bin')
          .map((column) => `${column.tableName}.${column.name}`)
          .sort(),
      ).toEqual(ASCII_COLUMNS);
      expect(textColumns.filter((column) => !['ascii_bin', 'utf8mb4_unicode_ci'].includes(column.collation!))).toEqual([]);
      const comment = (table: string, column: string) => after.find((row) => row.tableName === table && row.name === column)!.comment;
      expect(comment('sensor_report', 'field_date')).toMatch(/UTC instant.*SITE_TIMEZONE/);
      expect(comment('sensor_report', 'title')).toMatch(/exactly as submitted/);
      // InnoDB checks RESTRICT and NO ACTION alike, at once; MariaDB names a key added in place NO ACTION.
      expect(await reportForeignKeys()).toEqual(
        REPORT_FOREIGN_KEYS.map((key) => ({ ...key, onDelete: expect.stringMatching(/^(RESTRICT|NO ACTION)$/) })),
      );
      await expect(dataSource!.query("DELETE FROM users WHERE name = 'gateway-01'")).rejects.toMatchObject({
        driverError: { code: 'ER_ROW_IS_REFERENCED_2' },
      });
      expect(await dataSource!.query('SELECT COUNT(*) AS records FROM sensor_report')).toEqual([{ records: '2' }]);

      await dataSource!.undoLastMigration({ transaction: 'each' });

      expect(await reportForeignKeys()).toEqual([]);
      // The leases' table is made, with its comments, before any migration runs (lease.ts).
      expect((await columns()).filter((column) => column.comment && column.tableName !== 'leases')).toEqual([]);
      expect(definitions(await columns())).toEqual(definitions(before));
    });

    it('names the records whose user is gone instead of failing half-way', async () => {
      await seed(await open(BEFORE));
      await dataSource!.query('SET foreign_key_checks = 0');
      await dataSource!.query(
        'UPDATE sensor_report SET uid = 999999 WHERE nid = (SELECT MIN(nid) FROM (SELECT nid FROM sensor_report) AS r)',
      );
      await dataSource!.query('SET foreign_key_checks = 1');

      await expect(open(THROUGH_DESCRIBE)).rejects.toThrow(
        'Cannot add the foreign key sensor_report.uid -> users.uid: 1 sensor_report rows refer to a users row that does not exist; restore those rows, then start again.',
      );
      await open();
      expect(await reportForeignKeys()).toEqual([]);
      expect(
        await dataSource!.query(
          'SELECT TABLE_COMMENT AS comment FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?',
          [schema(), 'users'],
        ),
      ).toEqual([{ comment: '' }]);
    });

    it(`${ADD_INTEGRATIONS}: every new table and column described, the records kept, the uplink key unique; down restores the schema`, async () => {
      await seed(await open(THROUGH_DESCRIBE));
      const before = await columns();
      const tablesBefore = await tables();

      await open(THROUGH_INTEGRATIONS);

      const after = await columns();
      expect(after.filter((column) => !column.comment)).toEqual([]);
      const described = await tables();
      expect(described.map((table) => table.name)).toContain('integrations');
      expect(described.filter((table) => !table.comment || table.collation !== 'utf8mb4_unicode_ci')).toEqual([]);
      const textColumns = after.filter((column) => column.collation !== null);
      expect(
        textColumns
          .filter((column) => column.collation === 'ascii_bin')
          .map((column) => `${column.tableName}.${column.name}`)
          .sort(),
      ).toEqual([...ASCII_COLUMNS, ...INTEGRATION_ASCII_COLUMNS].sort());
      expect(textColumns.filter((column) => !['ascii_bin', 'utf8mb4_unicode_ci'].includes(column.collation!))).toEqual([]);
      // Nothing else changed: what was there before is there as it was, comments and collations included.
      const existing = (row: Record<string, string | null>) =>
        before.some((kept) => kept.tableName === row.tableName && kept.name === row.name);
      const username = (row: Record<string, string | null>) => row.tableName === 'login_failures' && row.name === 'username';
      expect(after.filter((row) => existing(row) && !username(row))).toEqual(before.filter((row) => !username(row)));
      expect(after.find(username)).toMatchObject({
        nullable: 'YES',
        collation: 'utf8mb4_unicode_ci',
        comment: expect.stringMatching(/NULL for a refused integration key/),
      });
      expect(await reportForeignKeys()).toEqual(
        [...REPORT_FOREIGN_KEYS, { column: 'integration_id', table: 'integrations', referenced: 'id' }]
          .sort((a, b) => a.column.localeCompare(b.column))
          .map((key) => ({ ...key, onDelete: expect.stringMatching(/^(RESTRICT|NO ACTION)$/) })),
      );
      expect(await dataSource!.query('SELECT uplink_key, integration_id FROM sensor_report')).toEqual([
        { uplink_key: null, integration_id: null },
        { uplink_key: null, integration_id: null },
      ]);
      await dataSource!.query(
        "UPDATE sensor_report SET uplink_key = '1:tts:as:up:01GZ4T2Q9V3WJ6K8M1N5P7R0SB' WHERE nid = (SELECT MIN(nid) FROM (SELECT nid FROM sensor_report) AS r)",
      );
      await expect(
        dataSource!.query("UPDATE sensor_report SET uplink_key = '1:tts:as:up:01GZ4T2Q9V3WJ6K8M1N5P7R0SB' WHERE uplink_key IS NULL"),
      ).rejects.toMatchObject({ driverError: { code: 'ER_DUP_ENTRY' } });
      await dataSource!.query(
        "INSERT INTO login_failures (username, address, attempted_at) VALUES (NULL, '192.0.2.7', '2026-01-01 00:00:00')",
      );

      await dataSource!.undoLastMigration({ transaction: 'each' });

      expect(await columns()).toEqual(before);
      expect(await tables()).toEqual(tablesBefore);
      expect(await dataSource!.query('SELECT COUNT(*) AS records FROM sensor_report')).toEqual([{ records: '2' }]);
    });
  });

  describeOn('mysql', 'on MariaDB/MySQL, after every migration', () => {
    it('leaves a comment on every table and column, one collation per table, device ids binary, and the other text columns ascii_bin or utf8mb4_unicode_ci', async () => {
      await open(migrations);
      const schema = new URL((database as { url: string }).url).pathname.slice(1);
      const tables = (await dataSource!.query(
        'SELECT TABLE_NAME AS name, TABLE_COLLATION AS collation, TABLE_COMMENT AS comment FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?',
        [schema],
      )) as Array<Record<string, string>>;
      const columns = (await dataSource!.query(
        'SELECT TABLE_NAME AS tableName, COLUMN_NAME AS name, COLLATION_NAME AS collation, COLUMN_COMMENT AS comment FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ?',
        [schema],
      )) as Array<Record<string, string | null>>;

      expect(tables.map((table) => table.name)).toContain('sensor');
      expect(tables.filter((table) => !table.comment || table.collation !== 'utf8mb4_unicode_ci')).toEqual([]);
      expect(columns.filter((column) => !column.comment)).toEqual([]);
      const text = columns.filter((column) => column.collation !== null);
      expect(
        text
          .filter((column) => column.collation === 'ascii_bin')
          .map((column) => `${column.tableName}.${column.name}`)
          .sort(),
      ).toEqual(
        [
          ...ASCII_COLUMNS,
          ...INTEGRATION_ASCII_COLUMNS,
          ...SENSOR_ASCII_COLUMNS,
          ...SIGNING_KEY_ASCII_COLUMNS,
          ...ALERT_ASCII_COLUMNS,
        ].sort(),
      );
      // Device ids are compared exactly (ExactDeviceIds): binary, without trailing-space padding on MariaDB.
      const deviceIds = [
        'sensor.dev_id',
        'sensor_report.field_sensor_id',
        'alerts.dev_id',
        'alert_notifications.dev_id',
        'sprung_episodes.dev_id',
        'alert_battery_lows.dev_id',
      ];
      expect(text.filter((column) => deviceIds.includes(`${column.tableName}.${column.name}`)).map((column) => column.collation)).toEqual(
        deviceIds.map(() => 'utf8mb4_nopad_bin'),
      );
      expect(
        text.filter(
          (column) =>
            !deviceIds.includes(`${column.tableName}.${column.name}`) && !['ascii_bin', 'utf8mb4_unicode_ci'].includes(column.collation!),
        ),
      ).toEqual([]);
    });
  });

  describeOn('mysql', `on MariaDB/MySQL, ${DESCRIBE_ORDER_TIMES}`, () => {
    const columns = async () =>
      (await dataSource!.query(
        'SELECT TABLE_NAME AS tableName, COLUMN_NAME AS name, COLUMN_TYPE AS type, IS_NULLABLE AS nullable, COLUMN_DEFAULT AS defaultValue, ' +
          'COLUMN_COMMENT AS comment FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? ORDER BY TABLE_NAME, ORDINAL_POSITION',
        [new URL((database as { url: string }).url).pathname.slice(1)],
      )) as Array<Record<string, string | null>>;
    const commentOf = (rows: Array<Record<string, string | null>>, column: string) =>
      rows.find((row) => `${row.tableName}.${row.name}` === column)!.comment;
    const withoutComments = (rows: Array<Record<string, string | null>>) => rows.map(({ comment: _comment, ...rest }) => rest);

    it('says "order time" wherever a sensor\'s last record or a notification\'s time is one, changing no column otherwise; down says "device time" again', async () => {
      await open(migrations.slice(0, indexOf(DESCRIBE_ORDER_TIMES)));
      const before = await columns();
      await open(migrations.slice(0, indexOf(DESCRIBE_ORDER_TIMES) + 1));
      const after = await columns();

      // "Last" is the latest order time, then the highest nid (docs/interface.md#sensors).
      for (const column of ['sensor.last_nid', 'sensor.sprung', 'sensor.last_device_time', 'alert_notifications.occurred_at']) {
        expect(commentOf(after, column)).toMatch(/order time/i);
      }
      expect(withoutComments(after)).toEqual(withoutComments(before));

      await dataSource!.undoLastMigration({ transaction: 'each' });

      expect(await columns()).toEqual(before);
    });

    it(`${DESCRIBE_SILENCE_END}: says a late record ends a silence too, changing no column otherwise; down says it again as before`, async () => {
      await open(migrations.slice(0, indexOf(DESCRIBE_SILENCE_END)));
      const before = await columns();
      await open(migrations.slice(0, indexOf(DESCRIBE_SILENCE_END) + 1));
      const after = await columns();

      expect(commentOf(before, 'sensor.silent_since')).toMatch(/not a late one/);
      expect(commentOf(after, 'sensor.silent_since')).toMatch(/late or not/);
      expect(withoutComments(after)).toEqual(withoutComments(before));

      await dataSource!.undoLastMigration({ transaction: 'each' });

      expect(await columns()).toEqual(before);
    });
  });

  describeOn('sqlite', 'on SQLite', () => {
    const shape = async () => ({
      columns: await dataSource!.query('PRAGMA table_info(sensor_report)'),
      indexes: await Promise.all(
        ((await dataSource!.query('PRAGMA index_list(sensor_report)')) as Array<{ name: string; unique: number }>)
          .filter((index) => !/^sensor_report_(uid|revision_uid|type)$/.test(index.name))
          .sort((a, b) => a.name.localeCompare(b.name))
          .map(async (index) => ({
            name: index.name,
            unique: index.unique,
            columns: await dataSource!.query(`PRAGMA index_info("${index.name}")`),
          })),
      ),
      records: await dataSource!.query('SELECT * FROM sensor_report ORDER BY nid'),
    });
    const foreignKeys = async () =>
      ((await dataSource!.query('PRAGMA foreign_key_list(sensor_report)')) as Array<Record<string, string>>)
        .map((key) => ({ column: key.from, table: key.table, referenced: key.to, onDelete: key.on_delete }))
        .sort((a, b) => String(a.column).localeCompare(String(b.column)));
    const sequence = async () => dataSource!.query("SELECT seq FROM sqlite_sequence WHERE name = 'sensor_report'");

    it('adds the foreign keys by rebuilding sensor_report with the same columns, indexes, rows and nid counter; down takes them away', async () => {
      await seed(await open(BEFORE));
      // A record deleted by hand: its nid must not be handed out again.
      await dataSource!.query('DELETE FROM sensor_report WHERE nid = (SELECT MAX(nid) FROM sensor_report)');
      const before = await shape();
      expect(await sequence()).toEqual([{ seq: 2 }]);

      await open(THROUGH_DESCRIBE);

      expect(await shape()).toEqual(before);
      expect(await sequence()).toEqual([{ seq: 2 }]);
      expect(await foreignKeys()).toEqual(REPORT_FOREIGN_KEYS.map((key) => ({ ...key, onDelete: 'RESTRICT' })));
      // SQLite reports a RESTRICT action as a constraint trigger.
      await expect(dataSource!.query("DELETE FROM users WHERE name = 'gateway-01'")).rejects.toThrow('FOREIGN KEY constraint failed');

      await dataSource!.undoLastMigration({ transaction: 'each' });

      expect(await foreignKeys()).toEqual([]);
      expect(await shape()).toEqual(before);
      expect(await sequence()).toEqual([{ seq: 2 }]);
    });

    it('names the records whose user is gone instead of failing half-way', async () => {
      await seed(await open(BEFORE));
      await dataSource!.query('PRAGMA foreign_keys = OFF');
      await dataSource!.query('UPDATE sensor_report SET uid = 999999 WHERE nid = 1');
      await dataSource!.query('PRAGMA foreign_keys = ON');

      await expect(open(THROUGH_DESCRIBE)).rejects.toThrow(
        'Cannot add the foreign key sensor_report.uid -> users.uid: 1 sensor_report rows refer to a users row that does not exist; restore those rows, then start again.',
      );
      await open();
      expect(await foreignKeys()).toEqual([]);
    });

    it(`${ADD_INTEGRATIONS}: adds the columns by rebuilding sensor_report with its rows and nid counter; down takes them away`, async () => {
      await seed(await open(THROUGH_DESCRIBE));
      await dataSource!.query('DELETE FROM sensor_report WHERE nid = (SELECT MAX(nid) FROM sensor_report)');
      const before = await shape();
      const keysBefore = await foreignKeys();

      await open(THROUGH_INTEGRATIONS);

      const after = await shape();
      expect(after.columns.map((column: { name: string }) => column.name)).toEqual([
        ...before.columns.map((column: { name: string }) => column.name),
        'uplink_key',
        'integration_id',
      ]);
      expect(after.records).toEqual(before.records.map((record: object) => ({ ...record, uplink_key: null, integration_id: null })));
      expect(after.indexes.filter((index) => index.name === 'sensor_report_uplink_key').map((index) => index.unique)).toEqual([1]);
      expect(await sequence()).toEqual([{ seq: 2 }]);
      expect(await foreignKeys()).toContainEqual({
        column: 'integration_id',
        table: 'integrations',
        referenced: 'id',
        onDelete: 'RESTRICT',
      });
      await dataSource!.query(
        "INSERT INTO login_failures (username, address, attempted_at) VALUES (NULL, '192.0.2.7', '2026-01-01 00:00:00')",
      );

      await dataSource!.undoLastMigration({ transaction: 'each' });

      expect(await shape()).toEqual(before);
      expect(await sequence()).toEqual([{ seq: 2 }]);
      expect(await foreignKeys()).toEqual(keysBefore);
    });
  });
});
