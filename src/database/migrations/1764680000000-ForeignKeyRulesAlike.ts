import { type MigrationInterface, type QueryRunner, TableForeignKey } from 'typeorm';

/** Every table with a foreign key, referencing tables first. */
const TABLES = [
  'oauth_refresh_tokens',
  'oauth_access_tokens',
  'integrations',
  'sensor_report',
  'sensor',
  'alerts',
  'alert_notifications',
  'sprung_episodes',
  'alert_battery_lows',
];
const REFUSE = 'NO ACTION';

/**
 * One rule for each foreign key on both engines, as the entities declare them: a key that cascades on
 * delete still does; every other rule, on delete and on update, is NO ACTION. The earlier migrations
 * left the same behaviour under different names — RESTRICT where SQLite or MySQL 8 took the rule as
 * written, NO ACTION where MariaDB added a key in place, RESTRICT where MariaDB filled in an omitted
 * ON UPDATE, NO ACTION where SQLite did — and InnoDB and SQLite (its keys not deferred) check RESTRICT
 * and NO ACTION alike, at the end of each statement. Nothing a user can do changes.
 *
 * On MySQL/MariaDB a key is dropped and added again without the row check, in place (the rows already
 * satisfy it). On SQLite, which cannot change a constraint, TypeORM rebuilds the table; the AUTOINCREMENT
 * counter is put back, so that no id of a row deleted by hand is handed out again.
 */
export class ForeignKeyRulesAlike1764680000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    const mysql = queryRunner.connection.options.type === 'mysql';
    for (const table of await queryRunner.getTables(TABLES)) {
      const outOfRule = table.foreignKeys.filter((key) => key.onUpdate !== REFUSE || key.onDelete !== ruleOnDelete(key));
      if (outOfRule.length === 0) continue;
      const restated = outOfRule.map(
        (key) =>
          new TableForeignKey({
            name: key.name,
            columnNames: key.columnNames,
            referencedTableName: key.referencedTableName,
            referencedColumnNames: key.referencedColumnNames,
            onDelete: ruleOnDelete(key),
            onUpdate: REFUSE,
          }),
      );
      if (mysql) {
        await queryRunner.dropForeignKeys(table.name, outOfRule);
        await queryRunner.query('SET foreign_key_checks = 0');
        try {
          await queryRunner.createForeignKeys(table.name, restated);
        } finally {
          await queryRunner.query('SET foreign_key_checks = 1');
        }
      } else {
        await keepingSequence(queryRunner, table.name, async () => {
          await queryRunner.dropForeignKeys(table.name, outOfRule);
          await queryRunner.createForeignKeys(table.name, restated);
        });
      }
    }
  }

  /** Nothing: the earlier rules meant what these mean, and an earlier version reads either alike. */
  async down(): Promise<void> {}
}

function ruleOnDelete(key: TableForeignKey): string {
  return key.onDelete === 'CASCADE' ? 'CASCADE' : REFUSE;
}

/** SQLite: a rebuilt table's AUTOINCREMENT counter starts again from its highest row; the old one is put back. */
async function keepingSequence(queryRunner: QueryRunner, table: string, rebuild: () => Promise<void>): Promise<void> {
  const [before] = (await queryRunner.query('SELECT seq FROM sqlite_sequence WHERE name = ?', [table])) as Array<{ seq: number }>;
  await rebuild();
  if (!before) return;
  const [after] = (await queryRunner.query('SELECT seq FROM sqlite_sequence WHERE name = ?', [table])) as Array<{ seq: number }>;
  if (!after) await queryRunner.query('INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)', [table, before.seq]);
  else if (after.seq < before.seq) await queryRunner.query('UPDATE sqlite_sequence SET seq = ? WHERE name = ?', [before.seq, table]);
}
