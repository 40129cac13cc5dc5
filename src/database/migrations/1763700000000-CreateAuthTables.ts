import { type MigrationInterface, type QueryRunner, Table, type TableColumnOptions, TableForeignKey, TableIndex } from 'typeorm';

/** Users, OAuth clients, issued tokens and failed log-ins. */
export class CreateAuthTables1763700000000 implements MigrationInterface {
  name = 'CreateAuthTables1763700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const mysql = queryRunner.connection.options.type === 'mysql';
    const id = (name: string): TableColumnOptions => ({
      name,
      type: 'integer',
      isPrimary: true,
      isGenerated: true,
      generationStrategy: 'increment',
    });
    const ascii = (name: string, length: number, nullable = false): TableColumnOptions => ({
      name,
      type: 'varchar',
      length: String(length),
      isNullable: nullable,
      ...(mysql ? { charset: 'ascii', collation: 'ascii_bin' } : {}),
    });
    // User names compare without regard to case on both engines, as Drupal's do on MySQL.
    const text = (name: string, length: number): TableColumnOptions => ({
      name,
      type: 'varchar',
      length: String(length),
      ...(mysql ? { charset: 'utf8mb4', collation: 'utf8mb4_unicode_ci' } : { collation: 'NOCASE' }),
    });
    const flag = (name: string): TableColumnOptions => ({ name, type: 'boolean', default: 0 });
    const instant = (name: string, nullable = false): TableColumnOptions => ({ name, type: 'datetime', isNullable: nullable });
    const table = (name: string, columns: TableColumnOptions[]) => new Table({ name, columns, ...(mysql ? { engine: 'InnoDB' } : {}) });
    // Whatever the database's default, the tables themselves are utf8mb4 (TypeORM has no table charset option).
    const utf8mb4 = async (name: string) => {
      if (mysql) await queryRunner.query(`ALTER TABLE \`${name}\` DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    };

    await queryRunner.createTable(
      table('users', [
        id('uid'),
        ascii('uuid', 36),
        text('name', 60),
        ascii('pass', 255),
        flag('status'),
        flag('may_create_sensor_records'),
        instant('created'),
        instant('changed'),
      ]),
      true,
    );
    await queryRunner.createIndex('users', new TableIndex({ name: 'users_uuid', columnNames: ['uuid'], isUnique: true }));
    await queryRunner.createIndex('users', new TableIndex({ name: 'users_name', columnNames: ['name'], isUnique: true }));

    await queryRunner.createTable(
      table('oauth_clients', [id('id'), ascii('client_id', 64), text('label', 255), ascii('secret_hash', 64), instant('created')]),
      true,
    );
    await queryRunner.createIndex(
      'oauth_clients',
      new TableIndex({ name: 'oauth_clients_client_id', columnNames: ['client_id'], isUnique: true }),
    );

    const tokenColumns = (secret: TableColumnOptions): TableColumnOptions[] => [
      id('id'),
      secret,
      ascii('family_id', 36),
      ascii('client_id', 64),
      { name: 'uid', type: 'integer' },
      instant('expires_at'),
      flag('revoked'),
    ];
    await queryRunner.createTable(
      table('oauth_refresh_tokens', [...tokenColumns(ascii('token_hash', 64)), instant('revoked_at', true), instant('created')]),
      true,
    );
    await queryRunner.createTable(table('oauth_access_tokens', [...tokenColumns(ascii('jti', 64)), instant('created')]), true);
    for (const name of ['users', 'oauth_clients', 'oauth_refresh_tokens', 'oauth_access_tokens']) await utf8mb4(name);
    for (const [tableName, secretColumn] of [
      ['oauth_refresh_tokens', 'token_hash'],
      ['oauth_access_tokens', 'jti'],
    ] as const) {
      await queryRunner.createIndex(
        tableName,
        new TableIndex({ name: `${tableName}_${secretColumn}`, columnNames: [secretColumn], isUnique: true }),
      );
      await queryRunner.createIndex(tableName, new TableIndex({ name: `${tableName}_family_id`, columnNames: ['family_id'] }));
      await queryRunner.createIndex(tableName, new TableIndex({ name: `${tableName}_expires_at`, columnNames: ['expires_at'] }));
      await queryRunner.createForeignKeys(tableName, [
        new TableForeignKey({
          name: `${tableName}_uid_fk`,
          columnNames: ['uid'],
          referencedTableName: 'users',
          referencedColumnNames: ['uid'],
          onDelete: 'CASCADE',
        }),
        new TableForeignKey({
          name: `${tableName}_client_fk`,
          columnNames: ['client_id'],
          referencedTableName: 'oauth_clients',
          referencedColumnNames: ['client_id'],
          onDelete: 'CASCADE',
        }),
      ]);
    }

    await queryRunner.createTable(
      table('login_failures', [id('id'), text('username', 255), ascii('address', 64), instant('attempted_at')]),
      true,
    );
    await utf8mb4('login_failures');
    await queryRunner.createIndex(
      'login_failures',
      new TableIndex({ name: 'login_failures_username', columnNames: ['username', 'attempted_at'] }),
    );
    await queryRunner.createIndex(
      'login_failures',
      new TableIndex({ name: 'login_failures_address', columnNames: ['address', 'attempted_at'] }),
    );
    await queryRunner.createIndex('login_failures', new TableIndex({ name: 'login_failures_attempted_at', columnNames: ['attempted_at'] }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const name of ['login_failures', 'oauth_access_tokens', 'oauth_refresh_tokens', 'oauth_clients', 'users']) {
      await queryRunner.dropTable(name, true, true, true);
    }
  }
}
