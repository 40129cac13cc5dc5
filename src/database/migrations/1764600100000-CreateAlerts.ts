import { type MigrationInterface, type QueryRunner, Table, type TableColumnOptions, TableIndex } from 'typeorm';

/**
 * The alerts (docs/alerts.md): who hears of which sensor events and how (`alerts`), the notifications
 * waiting to be sent or sent (`alert_notifications`, a transactional outbox written with the record
 * that causes each), the sprung episodes and their 24-hour clock (`sprung_episodes`), and which
 * battery alerts have fired and wait to be armed again (`alert_battery_lows`).
 */
export class CreateAlerts1764600100000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    const mysql = queryRunner.connection.options.type === 'mysql';
    const deviceIdCollation = mysql ? await collationOfSensorDevId(queryRunner) : undefined;
    const column = (name: string, type: string, comment: string, more: Partial<TableColumnOptions> = {}): TableColumnOptions => ({
      name,
      type,
      ...(mysql ? { comment } : {}),
      ...more,
    });
    const id = (comment: string) =>
      column('id', 'integer', comment, { isPrimary: true, isGenerated: true, generationStrategy: 'increment' });
    const ascii = (name: string, length: number, comment: string, isNullable = false) =>
      column(name, 'varchar', comment, {
        length: String(length),
        isNullable,
        ...(mysql ? { charset: 'ascii', collation: 'ascii_bin' } : {}),
      });
    // Compared as sensor.dev_id is: exactly.
    const devId = (comment: string, isNullable = false) =>
      column('dev_id', 'varchar', comment, {
        length: '255',
        isNullable,
        ...(mysql ? { charset: 'utf8mb4', collation: deviceIdCollation } : {}),
      });
    const text = (name: string, comment: string, isNullable = false) =>
      column(name, 'text', comment, { isNullable, ...(mysql ? { charset: 'utf8mb4', collation: 'utf8mb4_unicode_ci' } : {}) });
    const instant = (name: string, comment: string, isNullable = false) => column(name, 'datetime', comment, { isNullable });
    const integer = (name: string, comment: string, isNullable = false) => column(name, 'integer', comment, { isNullable });
    const decimal = (name: string, comment: string) => column(name, 'decimal', comment, { precision: 10, scale: 3, isNullable: true });
    const owner = { columnNames: ['uid'], referencedTableName: 'users', referencedColumnNames: ['uid'], onDelete: 'RESTRICT' };
    const table = (name: string, comment: string, rest: Omit<ConstructorParameters<typeof Table>[0] & object, 'name'>) =>
      new Table({ name, ...(mysql ? { engine: 'InnoDB', comment } : {}), ...rest });

    await queryRunner.createTable(
      table('alerts', 'Who hears of which sensor events, and how: set up with alert:create.', {
        columns: [
          id('The alert id (alert:list, alert:delete --id).'),
          integer('uid', "users.uid of the owner: the alert concerns this user's sensors only."),
          ascii(
            'events',
            255,
            'The events it sends, comma-separated: sprung, reset, silent, back, battery_low, tilted, bait_low, sprung_reminder, sprung_escalation, sprung_deadline.',
          ),
          devId("Only this sensor of the owner's (exactly as dev_id); NULL for every sensor of the owner.", true),
          ascii('channel', 16, 'webhook or email.'),
          text('target', 'The webhook URL or the email address.'),
          ascii('format', 16, "A webhook's body: json, slack or text."),
          ascii(
            'secret',
            128,
            "The webhook's signing secret (HMAC-SHA256); NULL for email. A secret: whoever reads it can sign notifications.",
            true,
          ),
          decimal('battery_below', 'battery_low when the last known voltage falls below this, volts; NULL: no battery_low.'),
          decimal('bait_below', "bait_low when a Baitlevel report's field_data is below this; NULL: no bait_low."),
          integer('remind_after', 'Seconds after a sprung report that sprung_reminder is sent while the trap is not set.'),
          integer(
            'escalate_after',
            'Seconds after a sprung report that sprung_escalation goes to the escalation target; NULL: none.',
            true,
          ),
          ascii('escalate_channel', 16, 'webhook or email, for the escalation; NULL: none.', true),
          text('escalate_target', "The escalation's webhook URL or email address; NULL: none.", true),
          instant('created', 'When the alert was created, UTC.'),
        ],
        foreignKeys: [{ name: 'alerts_uid_fk', ...owner }],
      }),
    );
    await queryRunner.createTable(
      table(
        'alert_notifications',
        'The notifications of the alerts: written in the transaction of the record that causes each, sent by one instance.',
        {
          columns: [
            id('The notification id: Idempotency-Key and notification_id of the webhook.'),
            integer('alert_id', 'alerts.id.'),
            integer('uid', "users.uid of the sensor's owner (the alert's)."),
            devId("The sensor's dev_id; empty for a test notification."),
            ascii(
              'event',
              32,
              'sprung, reset, silent, back, battery_low, tilted, bait_low, sprung_reminder, sprung_escalation, sprung_deadline or test.',
            ),
            ascii('recipient', 16, "primary (the alert's target) or escalation (its escalation target)."),
            instant(
              'occurred_at',
              "When the event happened, UTC: the record's device time, or the clock's for silent and the 24-hour clock.",
            ),
            text('text', "The notification's text, as sent."),
            text('sensor', 'The sensor as the sensor routes answered it when the event was raised (JSON).'),
            integer('record_nid', 'sensor_report.nid of the record that raised it; NULL for silent, the 24-hour clock and test.', true),
            integer('episode_id', 'sprung_episodes.id for sprung and the 24-hour clock; NULL otherwise.', true),
            ascii(
              'dedupe_key',
              191,
              'Unique name of an event raised by the clock (event:episode:alert), so that it is raised once; NULL otherwise.',
              true,
            ),
            ascii('status', 16, 'pending, delivered or failed.'),
            integer('attempts', 'Sends tried.'),
            instant('next_attempt_at', 'When it may be tried (again), UTC.'),
            ascii('claimed_by', 36, 'Random id of the instance sending it now; NULL when none is.', true),
            instant('claimed_until', 'When that claim runs out (the instance died), UTC; NULL when unclaimed.', true),
            instant('created', 'When it was written (with its record), UTC.'),
            instant('delivered_at', 'When the receiver accepted it, UTC; NULL until then.', true),
            text('last_error', 'What the last failed try met (no secrets, no query strings); NULL when none failed.', true),
          ],
          foreignKeys: [
            {
              name: 'alert_notifications_alert_fk',
              columnNames: ['alert_id'],
              referencedTableName: 'alerts',
              referencedColumnNames: ['id'],
              onDelete: 'CASCADE',
            },
          ],
        },
      ),
    );
    await queryRunner.createTable(
      table('sprung_episodes', 'Each time a trap was sprung, until a Set: the 24-hour clock of a live-capture trap.', {
        columns: [
          id('The episode id.'),
          integer('uid', "users.uid of the sensor's owner."),
          devId("The sensor's dev_id."),
          instant('sprung_at', 'Device time of the report that sprung the trap, UTC: the 24 hours run from it.'),
          integer('sprung_nid', 'sensor_report.nid of that report.'),
          instant(
            'reset_at',
            'Device time of the Set report that ended it, UTC; NULL while the trap is sprung (the episode is open).',
            true,
          ),
          integer('reset_nid', 'sensor_report.nid of that Set report; NULL while open.', true),
          instant('first_delivered_at', 'When the first notification of it was delivered, UTC; NULL until one was.', true),
        ],
        foreignKeys: [{ name: 'sprung_episodes_uid_fk', ...owner }],
      }),
    );
    await queryRunner.createTable(
      table(
        'alert_battery_lows',
        'The battery alerts that have fired for a sensor and are armed again only above their threshold + 0.1 V.',
        {
          columns: [
            integer('alert_id', 'alerts.id.', false),
            integer('uid', "users.uid of the sensor's owner."),
            devId("The sensor's dev_id."),
          ].map((options) => ({ ...options, isPrimary: true })),
          foreignKeys: [
            {
              name: 'alert_battery_lows_alert_fk',
              columnNames: ['alert_id'],
              referencedTableName: 'alerts',
              referencedColumnNames: ['id'],
              onDelete: 'CASCADE',
            },
          ],
        },
      ),
    );
    if (mysql) {
      for (const name of ['alerts', 'alert_notifications', 'sprung_episodes', 'alert_battery_lows']) {
        await queryRunner.query(`ALTER TABLE \`${name}\` DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
      }
    }
    const indexes: Array<[string, string[], boolean?]> = [
      ['alerts', ['uid']],
      // The dispatcher's scan for work, and the head of each alert's queue per sensor.
      ['alert_notifications', ['status', 'next_attempt_at']],
      ['alert_notifications', ['alert_id', 'uid', 'dev_id', 'status', 'id']],
      ['alert_notifications', ['dedupe_key'], true],
      ['alert_notifications', ['episode_id']],
      ['sprung_episodes', ['uid', 'dev_id', 'reset_at']],
      ['sprung_episodes', ['reset_at', 'sprung_at']],
      ['sprung_episodes', ['uid', 'sprung_at']],
    ];
    for (const [tableName, columnNames, isUnique] of indexes) {
      await queryRunner.createIndex(tableName, new TableIndex({ name: `${tableName}_${columnNames.join('_')}`, columnNames, isUnique }));
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const name of ['alert_battery_lows', 'sprung_episodes', 'alert_notifications', 'alerts'])
      await queryRunner.dropTable(name, true, true, true);
  }
}

/** The exact collation ExactDeviceIds1764100000000 chose for this server. */
async function collationOfSensorDevId(queryRunner: QueryRunner): Promise<string> {
  const [found] = (await queryRunner.query(
    "SELECT COLLATION_NAME AS name FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'sensor' AND COLUMN_NAME = 'dev_id'",
  )) as Array<{ name: string }>;
  return found?.name ?? 'utf8mb4_bin';
}
