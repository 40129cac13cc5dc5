import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The column's comment, as `SprungEpisodeEntity` declares it. */
const COMMENT =
  'Steps of its 24-hour clock written (sprung_reminder, sprung_escalation, sprung_deadline), counted in the transaction that writes them.';

/**
 * `sprung_episodes.clock_steps`: the alerts' clock counts each step it writes on the episode's row, in
 * the step's transaction, so that a `Set` closing the episode and a step conflict on that row, on
 * another Galera node too (docs/alerts.md#the-24-hour-clock). Filled from the steps' notifications kept.
 * A plain ALTER TABLE: TypeORM's addColumn rebuilds the whole table on SQLite, where ADD COLUMN does.
 */
export class CountClockSteps1764700000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    const mysql = queryRunner.connection.options.type === 'mysql';
    await queryRunner.query(
      `ALTER TABLE sprung_episodes ADD COLUMN clock_steps ${mysql ? 'int' : 'integer'} NOT NULL DEFAULT 0${mysql ? ' COMMENT ?' : ''}`,
      mysql ? [COMMENT] : [],
    );
    await queryRunner.query(
      `UPDATE sprung_episodes SET clock_steps = (SELECT COUNT(*) FROM alert_notifications n
         WHERE n.episode_id = sprung_episodes.id AND n.event IN ('sprung_reminder', 'sprung_escalation', 'sprung_deadline'))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE sprung_episodes DROP COLUMN clock_steps');
  }
}
