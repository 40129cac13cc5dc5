import { createConnection } from 'mysql2/promise';
import type { DataSource } from 'typeorm';
import type { DatabaseConfig } from '../src/config/app-config.js';
import { buildDataSourceOptions } from '../src/database/data-source-options.js';
import { quietDatabaseLogger } from '../src/database/database-logger.js';
import { initializeDataSource } from '../src/database/initialize-data-source.js';
import { schemaBuilderOptions } from '../src/database/schema-builder-options.js';
import { ServiceDataSource } from '../src/database/service-data-source.js';
import { describeOn } from './utils/engine.js';

/** What TypeORM's schema builder would run to make the database match the entities: nothing, when they describe it. */
async function statementsLeft(dataSource: DataSource): Promise<string[]> {
  const { upQueries } = await dataSource.driver.createSchemaBuilder().log();
  return upQueries.map((query) => query.query);
}

/**
 * The entities say what the tables are (docs/operations.md#changing-the-schema): after every migration the
 * schema builder finds no index, key, column type, length, nullability, default or (on MySQL) comment
 * to change. A failure lists the statements it would run: the entity or the migration to correct.
 */
describe('The entities and the migrations', () => {
  describeOn('sqlite', 'on SQLite', () => {
    let dataSource: DataSource | undefined;
    afterEach(async () => dataSource?.destroy());

    it('leave the schema builder nothing to do after every migration', async () => {
      const database: DatabaseConfig = { type: 'sqlite', path: ':memory:', migrationsRun: true, requestTimeoutMs: 10_000 };
      dataSource = await initializeDataSource({ ...buildDataSourceOptions(database), logger: quietDatabaseLogger });

      expect(await statementsLeft(dataSource)).toEqual([]);
    });
  });

  describeOn('mysql', 'on MariaDB/MySQL', () => {
    let migrated: DataSource | undefined;
    let compared: DataSource | undefined;
    let dropScratch = async () => {};
    afterEach(async () => {
      await compared?.destroy();
      await migrated?.destroy();
      await dropScratch();
    });

    /** A scratch database beside this worker's, created with MariaDB's usual default collation. */
    const scratchDatabase = async (): Promise<DatabaseConfig> => {
      const url = new URL(process.env.DATABASE_URL!);
      const name = `${decodeURIComponent(url.pathname.slice(1))}_entities`;
      url.pathname = '/';
      const admin = await createConnection({ uri: url.toString() });
      await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci`);
      dropScratch = async () => {
        await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
        await admin.end();
      };
      url.pathname = `/${name}`;
      return { type: 'mysql', url: url.toString(), migrationsRun: true, poolSize: 2, requestTimeoutMs: 10_000 };
    };

    it('leave the schema builder nothing to do after every migration, comments included, and each declared collation is the column’s', async () => {
      const options = { ...buildDataSourceOptions(await scratchDatabase()), logger: quietDatabaseLogger };
      migrated = await initializeDataSource(options);
      compared = await new ServiceDataSource(await schemaBuilderOptions(options)).initialize();

      expect(await statementsLeft(compared)).toEqual([]);

      // The builder compares no collations: each one an entity declares is checked here.
      const columns = (await migrated.query(
        'SELECT TABLE_NAME AS tableName, COLUMN_NAME AS name, COLLATION_NAME AS collation FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE()',
      )) as Array<{ tableName: string; name: string; collation: string | null }>;
      const declared = compared.entityMetadatas.flatMap((entity) =>
        entity.columns
          .filter((column) => column.collation)
          .map((column) => `${entity.tableName}.${column.databaseName} ${column.collation}`),
      );
      const actual = columns.map((column) => `${column.tableName}.${column.name} ${column.collation}`);
      expect(declared.length).toBeGreaterThan(40);
      expect(declared.filter((column) => !actual.includes(column))).toEqual([]);
    });
  });
});
