import { type MigrationInterface, type QueryRunner, TableIndex } from 'typeorm';

const SPRUNG_NID_INDEX = new TableIndex({ name: 'sprung_episodes_sprung_nid', columnNames: ['sprung_nid'] });

/**
 * A record's transaction reads the ids of the episodes it has just inserted by their sprung reports
 * (alerts/sprung-episodes.ts; an INSERT of several rows tells only the first id): an index, so that
 * the read finds them without going through every episode of their sensors. On MySQL 8 and MariaDB
 * 10.6 an index is added in place, with writes going on.
 */
export class IndexEpisodeSprungReports1764780000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createIndex('sprung_episodes', SPRUNG_NID_INDEX);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('sprung_episodes', SPRUNG_NID_INDEX.name!);
  }
}
