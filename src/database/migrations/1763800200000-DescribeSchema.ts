import { type MigrationInterface, type QueryRunner, TableForeignKey, TableIndex } from 'typeorm';

/** A column as the earlier migrations created it on MySQL (restated unchanged, but for its comment). */
type Column = [name: string, definition: string, comment: string];

interface DescribedTable {
  name: string;
  comment: string;
  columns: Column[];
}

const ID = 'INT NOT NULL AUTO_INCREMENT';
const INT = 'INT NOT NULL';
const INT_NULL = 'INT NULL';
const FLAG = 'TINYINT(1) NOT NULL';
const FLAG_OFF = 'TINYINT(1) NOT NULL DEFAULT 0';
const INSTANT = 'DATETIME NOT NULL';
const DECIMAL = 'DECIMAL(10,3) NULL';
const ascii = (length: number, nullable = false) =>
  `VARCHAR(${length}) CHARACTER SET ascii COLLATE ascii_bin ${nullable ? 'NULL' : 'NOT NULL'}`;
const text = (length: number, nullable = false) =>
  `VARCHAR(${length}) CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci ${nullable ? 'NULL' : 'NOT NULL'}`;

const tokenColumns = (secret: Column): Column[] => [
  ['id', ID, 'Row id.'],
  secret,
  ['family_id', ascii(36), 'UUID shared by every token descended from one password grant (revoked together on reuse).'],
  ['client_id', ascii(64), 'oauth_clients.client_id the token was issued to.'],
  ['uid', INT, 'users.uid the token was issued to.'],
  ['expires_at', INSTANT, 'When the token expires, UTC.'],
];

/**
 * Every table as the admin team reads it with SQL. Text is utf8mb4_unicode_ci; identifiers, digests
 * and fixed vocabularies stay ascii_bin on purpose (exact, case-sensitive, one byte per character).
 */
const TABLES: DescribedTable[] = [
  {
    name: 'users',
    comment: 'Accounts that obtain tokens: devices, gateways and operators (Drupal users_field_data, reduced).',
    columns: [
      ['uid', ID, 'User id (Drupal uid); sensor_report.uid and the token tables refer to it.'],
      ['uuid', ascii(36), 'UUID v4 of the user, rendered as target_uuid in records.'],
      ['name', text(60), 'User name of the password grant; unique whatever the letter case.'],
      ['pass', ascii(255), 'Argon2id hash of the password (PHC string); the password itself is never stored.'],
      ['status', FLAG_OFF, '1 active, 0 blocked (no tokens; its tokens refused within 5 s).'],
      ['may_create_sensor_records', FLAG_OFF, '1 may submit sensor records, 0 may not.'],
      ['created', INSTANT, 'When the user was created, UTC.'],
      ['changed', INSTANT, 'When the user was last changed (blocked, unblocked, new password), UTC.'],
    ],
  },
  {
    name: 'oauth_clients',
    comment: 'Registered OAuth clients (Drupal consumers).',
    columns: [
      ['id', ID, 'Row id.'],
      ['client_id', ascii(64), 'Public client id (UUID v4), sent as client_id.'],
      ['label', text(255), 'Name the operator gave the client.'],
      ['secret_hash', ascii(64), 'Hex SHA-256 of the client secret; the secret itself is never stored.'],
      ['created', INSTANT, 'When the client was registered, UTC.'],
    ],
  },
  {
    name: 'oauth_refresh_tokens',
    comment: 'Issued refresh tokens, by digest: grant family, owner, expiry, revocation.',
    columns: [
      ...tokenColumns(['token_hash', ascii(64), 'Hex SHA-256 of the opaque refresh token handed out.']),
      ['revoked', FLAG_OFF, '1 once used (each refresh token works once) or revoked.'],
      ['revoked_at', 'DATETIME NULL', 'When it was used or revoked, UTC; NULL while in force.'],
      ['created', INSTANT, 'When it was issued, UTC.'],
    ],
  },
  {
    name: 'oauth_access_tokens',
    comment: 'Issued access tokens, by JWT id (the token itself is not stored), so they can be revoked before they expire.',
    columns: [
      ...tokenColumns(['jti', ascii(64), 'The JWT id (jti claim) of the access token.']),
      ['revoked', FLAG_OFF, '1 revoked: refused by the bearer check within 5 s.'],
      ['created', INSTANT, 'When it was issued, UTC.'],
    ],
  },
  {
    name: 'login_failures',
    comment: 'Failed password grants, counted for the per-user-name and per-address flood limits.',
    columns: [
      ['id', ID, 'Row id.'],
      ['username', text(255), 'User name as tried, trimmed and lower-cased (it need not exist).'],
      ['address', ascii(64), 'Client IP address (from X-Forwarded-For when TRUST_PROXY is set).'],
      ['attempted_at', INSTANT, 'When the attempt failed, UTC.'],
    ],
  },
  {
    name: 'node_type',
    comment: 'Content types (Drupal bundles): one row, sensor_report.',
    columns: [
      ['type', ascii(32), 'Machine name of the bundle: sensor_report.'],
      ['uuid', ascii(36), 'UUID of the bundle, generated once per installation; every record renders it as type.target_uuid.'],
      ['name', text(255), 'Human-readable name of the bundle.'],
    ],
  },
  {
    name: 'sensor_report',
    comment: 'One row per sensor record (a Drupal node of bundle sensor_report); the service never changes or deletes one.',
    columns: [
      ['nid', ID, 'Record id (Drupal nid), as in /node/<nid>.'],
      ['uuid', ascii(36), 'UUID v4 of the record.'],
      ['vid', INT_NULL, 'Revision id: equal to nid (one revision per record); NULL only while the row is being written.'],
      ['type', ascii(32), 'Bundle, node_type.type: always sensor_report.'],
      ['langcode', ascii(12), 'Language code: always en.'],
      ['status', FLAG, 'Published: always 1.'],
      ['promote', FLAG, 'Promoted to the front page: always 0.'],
      ['sticky', FLAG, 'Sticky: always 0.'],
      ['default_langcode', FLAG, 'Default translation: always 1.'],
      ['revision_translation_affected', FLAG, 'Always 1.'],
      [
        'revision_log',
        'TEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci NULL',
        'Revision log message: always NULL (rendered as an empty list).',
      ],
      ['uid', INT, 'users.uid of the user whose access token submitted the record.'],
      ['revision_uid', INT, 'users.uid of the revision author: the same user.'],
      [
        'title',
        text(512),
        'Sensor report: <dev_id> (<metadata.time>), the device time quoted exactly as submitted, in whatever offset the device used (or none: then local to SITE_TIMEZONE); not converted to UTC.',
      ],
      ['created', INSTANT, 'When the record was stored, UTC.'],
      ['changed', INSTANT, 'When the record was stored, UTC (records are never changed).'],
      ['revision_timestamp', INSTANT, 'When the record was stored, UTC.'],
      ['field_battery_voltage', DECIMAL, 'Battery voltage, volts, rounded to 3 decimals; NULL when not sent.'],
      ['field_counter', INT_NULL, 'Event counter of the device; NULL when not sent.'],
      ['field_data', DECIMAL, 'Value the event carries (e.g. the bait level), rounded to 3 decimals; NULL when not sent.'],
      [
        'field_date',
        INSTANT,
        'Device time of the event (metadata.time) as a UTC instant, cut to whole seconds; a time sent without an offset was read in SITE_TIMEZONE. Rendered in SITE_TIMEZONE.',
      ],
      ['field_event', ascii(32), 'Event: Sprung, Set, Vibration, Heartbeat or Baitlevel.'],
      ['field_gateway', ascii(17, true), 'MAC address of the gateway, XX:XX:XX:XX:XX:XX upper-case; NULL when not sent.'],
      ['field_network', text(255, true), 'Network name as sent; NULL when not sent.'],
      ['field_rssi', INT_NULL, 'Received signal strength at the first gateway, dBm; NULL when not sent.'],
      ['field_sensor_id', text(255), 'Device id (dev_id) as sent.'],
      ['field_sequence', INT_NULL, 'Sequence number of the message; NULL when not sent.'],
      ['field_snr', DECIMAL, 'Signal-to-noise ratio at the first gateway, dB, rounded to 3 decimals; NULL when not sent.'],
      ['field_status', ascii(32, true), 'Trap status: Sprung, Set or Baitlevel; NULL when not sent.'],
      ['field_tilt_sensor', ascii(32, true), 'Tilt sensor: True, False, Fail or NotInstalled; NULL when not sent.'],
      ['field_timeout', INT, 'Heartbeat period, seconds: -1 no heartbeat, 0 expired; 86400 when not sent.'],
      [
        'request_body',
        'MEDIUMTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci NOT NULL',
        'The whole request body as received (JSON text), so nothing a device sent is lost; never returned.',
      ],
    ],
  },
  {
    name: 'schema_migrations',
    comment: 'Migrations applied to this database (TypeORM), one row each.',
    columns: [
      ['id', ID, 'Row id.'],
      ['timestamp', 'BIGINT NOT NULL', 'Timestamp in the migration name, milliseconds since 1970-01-01 UTC.'],
      ['name', text(255), 'Class name of the migration, e.g. CreateSensorReports1763700100000.'],
    ],
  },
];

/** Records must never be lost: deleting a user (or the bundle) that records refer to is refused, not cascaded. */
const REPORT_FOREIGN_KEYS = [
  { name: 'sensor_report_uid_fk', column: 'uid', table: 'users', referenced: 'uid' },
  { name: 'sensor_report_revision_uid_fk', column: 'revision_uid', table: 'users', referenced: 'uid' },
  { name: 'sensor_report_type_fk', column: 'type', table: 'node_type', referenced: 'type' },
];
// InnoDB needs an index on each referencing column; named here so that `down` can drop them again.
const REPORT_INDEXES = REPORT_FOREIGN_KEYS.map((key) => new TableIndex({ name: `sensor_report_${key.column}`, columnNames: [key.column] }));

/**
 * Describes the schema for the people who read it with SQL: a comment on every table and column (what
 * it holds, units, zone), one explicit collation on every table and text column, and the foreign keys
 * from sensor_report to users and node_type. On SQLite only the foreign keys apply.
 */
export class DescribeSchema1763800200000 implements MigrationInterface {
  name = 'DescribeSchema1763800200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await assertNoOrphanReports(queryRunner);
    if (queryRunner.connection.options.type === 'mysql') {
      for (const table of TABLES) await queryRunner.query(alterTable(table, true));
      await addReportForeignKeysOnMysql(queryRunner);
    } else {
      await addReportForeignKeysOnSqlite(queryRunner);
    }
  }

  /** Drops the foreign keys and the comments; the explicit collations stay (the earlier ones were whatever the server defaulted to). */
  async down(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type === 'mysql') {
      await queryRunner.query(`ALTER TABLE sensor_report ${REPORT_FOREIGN_KEYS.map((key) => `DROP FOREIGN KEY ${key.name}`).join(', ')}`);
      for (const index of REPORT_INDEXES) await queryRunner.dropIndex('sensor_report', index.name!);
      for (const table of TABLES) await queryRunner.query(alterTable(table, false));
    } else {
      const table = await queryRunner.getTable('sensor_report');
      const keys = table!.foreignKeys.filter((key) => REPORT_FOREIGN_KEYS.some((added) => added.name === key.name));
      await keepingSqliteSequence(queryRunner, () => queryRunner.dropForeignKeys('sensor_report', keys));
      for (const index of REPORT_INDEXES) await queryRunner.dropIndex('sensor_report', index.name!);
    }
  }
}

/** One ALTER TABLE per table: its collation, its comment and every column restated with (or without) its comment. */
function alterTable(table: DescribedTable, withComments: boolean): string {
  const comment = (text: string) => (withComments ? ` COMMENT ${literal(text)}` : " COMMENT ''");
  const columns = table.columns.map(([name, definition, text]) => `MODIFY COLUMN \`${name}\` ${definition}${comment(text)}`);
  return [
    `ALTER TABLE \`${table.name}\` DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci${comment(table.comment)}`,
    ...columns,
  ].join(', ');
}

function literal(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

/** A record whose user (or bundle) is gone would make the constraints fail half-way: name the problem first. */
async function assertNoOrphanReports(queryRunner: QueryRunner): Promise<void> {
  for (const key of REPORT_FOREIGN_KEYS) {
    const [{ orphans }] = (await queryRunner.query(
      `SELECT COUNT(*) AS orphans FROM sensor_report r LEFT JOIN ${key.table} t ON t.${key.referenced} = r.${key.column} WHERE t.${key.referenced} IS NULL`,
    )) as [{ orphans: number | string }];
    if (Number(orphans) > 0) {
      throw new Error(
        `Cannot add the foreign key sensor_report.${key.column} -> ${key.table}.${key.referenced}: ${orphans} sensor_report rows refer to a ${key.table} row that does not exist; restore those rows, then start again.`,
      );
    }
  }
}

/**
 * With the rows just checked, the constraints are added without re-checking every row: InnoDB then adds
 * them in place instead of copying the whole table (which, for millions of records, would block writes).
 */
async function addReportForeignKeysOnMysql(queryRunner: QueryRunner): Promise<void> {
  for (const index of REPORT_INDEXES) await queryRunner.createIndex('sensor_report', index);
  await queryRunner.query('SET foreign_key_checks = 0');
  try {
    const constraints = REPORT_FOREIGN_KEYS.map(
      (key) =>
        `ADD CONSTRAINT ${key.name} FOREIGN KEY (${key.column}) REFERENCES ${key.table} (${key.referenced}) ON DELETE RESTRICT ON UPDATE RESTRICT`,
    );
    await queryRunner.query(`ALTER TABLE sensor_report ${constraints.join(', ')}`);
  } finally {
    await queryRunner.query('SET foreign_key_checks = 1');
  }
}

/** SQLite cannot add a constraint to a table: TypeORM rebuilds sensor_report (copying every row) with them. */
async function addReportForeignKeysOnSqlite(queryRunner: QueryRunner): Promise<void> {
  const keys = REPORT_FOREIGN_KEYS.map(
    (key) =>
      new TableForeignKey({
        name: key.name,
        columnNames: [key.column],
        referencedTableName: key.table,
        referencedColumnNames: [key.referenced],
        onDelete: 'RESTRICT',
        onUpdate: 'RESTRICT',
      }),
  );
  await keepingSqliteSequence(queryRunner, () => queryRunner.createForeignKeys('sensor_report', keys));
  for (const index of REPORT_INDEXES) await queryRunner.createIndex('sensor_report', index);
}

/**
 * A rebuilt table starts its AUTOINCREMENT counter again from its highest row: put the old counter
 * back, so that the nid of a record deleted by hand is never handed out again.
 */
export async function keepingSqliteSequence(queryRunner: QueryRunner, rebuild: () => Promise<void>): Promise<void> {
  const [before] = (await queryRunner.query("SELECT seq FROM sqlite_sequence WHERE name = 'sensor_report'")) as Array<{ seq: number }>;
  await rebuild();
  if (!before) return;
  await queryRunner.query("DELETE FROM sqlite_sequence WHERE name = 'sensor_report'");
  await queryRunner.query(
    "INSERT INTO sqlite_sequence (name, seq) SELECT 'sensor_report', MAX(?, COALESCE(MAX(nid), 0)) FROM sensor_report",
    [before.seq],
  );
}
