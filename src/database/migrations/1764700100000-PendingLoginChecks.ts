import type { MigrationInterface, QueryRunner } from 'typeorm';

const TABLE_COMMENT = 'Failed password grants, and those being checked, counted for the per-user-name and per-address flood limits.';
const ATTEMPTED_AT_COMMENT = 'When the attempt failed, or, while pending, when its check began; UTC.';
const COMMENT = '1 while the password is being checked (attempted_at is when the check began; counted for 60 s at most), 0 for a failure.';

/**
 * `login_failures.pending` (docs/interface.md#failed-login-limits): a password check still running holds
 * its place in the limit, but is no failure; the rows already stored are failures.
 */
export class PendingLoginChecks1764700100000 implements MigrationInterface {
  name = 'PendingLoginChecks1764700100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const mysql = queryRunner.connection.options.type === 'mysql';
    // Plain ALTER TABLE: TypeORM's addColumn rebuilds the whole table on SQLite, where ADD COLUMN does.
    await queryRunner.query(
      `ALTER TABLE login_failures ADD COLUMN pending ${mysql ? 'tinyint' : 'boolean'} NOT NULL DEFAULT 0${mysql ? ' COMMENT ?' : ''}`,
      mysql ? [COMMENT] : [],
    );
    if (mysql) await describe(queryRunner, TABLE_COMMENT, ATTEMPTED_AT_COMMENT);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // A pending row is no failure.
    await queryRunner.query('DELETE FROM login_failures WHERE pending = 1');
    await queryRunner.query('ALTER TABLE login_failures DROP COLUMN pending');
    if (queryRunner.connection.options.type === 'mysql') {
      await describe(
        queryRunner,
        'Failed password grants, counted for the per-user-name and per-address flood limits.',
        'When the attempt failed, UTC.',
      );
    }
  }
}

async function describe(queryRunner: QueryRunner, table: string, attemptedAt: string): Promise<void> {
  await queryRunner.query('ALTER TABLE login_failures COMMENT = ?', [table]);
  await queryRunner.query('ALTER TABLE login_failures MODIFY attempted_at datetime NOT NULL COMMENT ?', [attemptedAt]);
}
