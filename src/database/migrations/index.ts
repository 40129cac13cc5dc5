import type { MigrationInterface } from 'typeorm';

/** The committed migrations in the order they apply. Each body uses the dialect-neutral QueryRunner API. */
export const migrations: Array<new () => MigrationInterface> = [];
