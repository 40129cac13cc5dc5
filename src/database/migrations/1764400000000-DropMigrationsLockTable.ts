import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The migrations' lock row now lives in the table of every named lease, `leases` (database/lease.ts),
 * made before any migration runs; the table that held it alone, `schema_migrations_lock`, is empty
 * whenever no migration runs, and goes.
 */
export class DropMigrationsLockTable1764400000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type !== 'mysql') return;
    await queryRunner.query('DROP TABLE IF EXISTS schema_migrations_lock');
  }

  /** Nothing: a version that uses the table makes it itself before migrating. */
  async down(): Promise<void> {}
}
