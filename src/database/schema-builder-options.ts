import { createConnection } from 'mysql2/promise';
import type { DataSourceOptions } from 'typeorm';

/**
 * The options under which TypeORM's schema builder reads this database right. The service connects
 * to MySQL and MariaDB alike as `mysql` (its migrations branch on that name), but the builder must be
 * told a MariaDB server is one: MariaDB's information_schema writes a column's missing default as the
 * text `NULL`, which TypeORM reads as no default only for `mariadb`. Only for comparing the schema with
 * the entities (`npm run migration:generate`, test/schema-entities.e2e-spec.ts), never for migrating.
 */
export async function schemaBuilderOptions(options: DataSourceOptions): Promise<DataSourceOptions> {
  if (options.type !== 'mysql') return options;
  const connection = await createConnection({ uri: options.url });
  try {
    const [[{ version }]] = (await connection.query('SELECT VERSION() AS version')) as unknown as [[{ version: string }]];
    return /mariadb/i.test(version) ? { ...options, type: 'mariadb', migrations: [] } : { ...options, migrations: [] };
  } finally {
    await connection.end();
  }
}
