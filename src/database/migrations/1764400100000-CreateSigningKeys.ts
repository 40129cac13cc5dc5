import { type MigrationInterface, type QueryRunner, Table, type TableColumnOptions } from 'typeorm';

/**
 * The token signing keys every instance shares (docs/interface.md#signing-keys): `keys:rotate` adds a
 * key pair here, `keys:retire` marks one retired. Empty until the first rotation: until then the
 * configured key (OAUTH_PRIVATE_KEY or the key directory) signs, as before.
 */
export class CreateSigningKeys1764400100000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    const mysql = queryRunner.connection.options.type === 'mysql';
    const described = (column: TableColumnOptions, comment: string, ascii = false): TableColumnOptions =>
      mysql ? { ...column, comment, ...(ascii ? { charset: 'ascii', collation: 'ascii_bin' } : {}) } : column;
    await queryRunner.createTable(
      new Table({
        name: 'oauth_signing_keys',
        columns: [
          described(
            { name: 'kid', type: 'varchar', length: '64', isPrimary: true },
            'JWK thumbprint (RFC 7638) of the public key: the kid in the header of the tokens it signs.',
            true,
          ),
          described(
            { name: 'private_key', type: 'text', isNullable: true },
            'PKCS#8 PEM private key; NULL for the configured key (OAUTH_PRIVATE_KEY or the key directory), kept outside the database. A secret: whoever reads it can sign tokens.',
            true,
          ),
          described(
            { name: 'public_key', type: 'text' },
            'SPKI PEM public key, published in GET /oauth/jwks while the key is not retired.',
            true,
          ),
          described({ name: 'created', type: 'datetime' }, 'When the key was made or recorded, UTC.'),
          described(
            { name: 'signs_from', type: 'datetime', isNullable: true },
            'When it becomes the signing key, UTC: a minute after keys:rotate, once every instance has it. NULL for the configured key.',
          ),
          described(
            { name: 'retired_at', type: 'datetime', isNullable: true },
            'When keys:retire retired it, UTC: from then on tokens it signed are refused. NULL while in use.',
          ),
        ],
        ...(mysql ? { engine: 'InnoDB', comment: 'Token signing keys (RS256) every instance shares: rotated, published, retired.' } : {}),
      }),
      true,
    );
    // TypeORM has no table character set option.
    if (mysql) await queryRunner.query('ALTER TABLE `oauth_signing_keys` DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('oauth_signing_keys', true);
  }
}
