import { type MigrationInterface, type QueryRunner, TableColumn } from 'typeorm';

const SECRET_COMMENT = 'Hex SHA-256 of the client secret; the secret itself is never stored.';
const PUBLIC_SECRET_COMMENT = `${SECRET_COMMENT} NULL for a public client (RFC 6749 section 2.1), which has no secret.`;

/**
 * Public clients (docs/interface.md#the-token-endpoint): a client that cannot keep a secret, such as the
 * fleet page running in a browser, is registered without one, its `secret_hash` NULL.
 */
export class PublicClients1764350000000 implements MigrationInterface {
  name = 'PublicClients1764350000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await changeSecretColumn(queryRunner, true);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // A public client cannot become a confidential one: it goes, with its tokens (on SQLite the
    // foreign keys are off while migrating, so they are removed here rather than by the cascade).
    const publicClients = 'SELECT client_id FROM oauth_clients WHERE secret_hash IS NULL';
    await queryRunner.query(`DELETE FROM oauth_refresh_tokens WHERE client_id IN (${publicClients})`);
    await queryRunner.query(`DELETE FROM oauth_access_tokens WHERE client_id IN (${publicClients})`);
    await queryRunner.query('DELETE FROM oauth_clients WHERE secret_hash IS NULL');
    await changeSecretColumn(queryRunner, false);
  }
}

async function changeSecretColumn(queryRunner: QueryRunner, nullable: boolean): Promise<void> {
  if (queryRunner.connection.options.type === 'mysql') {
    await queryRunner.query(
      `ALTER TABLE oauth_clients MODIFY secret_hash varchar(64) CHARACTER SET ascii COLLATE ascii_bin ${nullable ? 'NULL' : 'NOT NULL'} COMMENT ?`,
      [nullable ? PUBLIC_SECRET_COMMENT : SECRET_COMMENT],
    );
    return;
  }
  // SQLite rebuilds the table (foreign keys are off while migrations run).
  await queryRunner.changeColumn(
    'oauth_clients',
    'secret_hash',
    new TableColumn({ name: 'secret_hash', type: 'varchar', length: '64', isNullable: nullable }),
  );
}
