import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ASCII } from '../../database/text-columns.js';

/**
 * A token signing key kept in the database, shared by every instance (docs/interface.md#signing-keys):
 * made by `keys:rotate`, or recorded by `keys:retire` for the configured key (OAUTH_PRIVATE_KEY or the
 * key directory), whose private key stays where it is configured.
 */
@Entity({ name: 'oauth_signing_keys', comment: 'Token signing keys (RS256) every instance shares: rotated, published, retired.' })
export class SigningKeyEntity {
  /** The public key's JWK thumbprint (RFC 7638), the `kid` of the tokens it signs. */
  @PrimaryColumn({
    type: 'varchar',
    name: 'kid',
    length: 64,
    ...ASCII,
    comment: 'JWK thumbprint (RFC 7638) of the public key: the kid in the header of the tokens it signs.',
  })
  kid!: string;

  /** PKCS#8 PEM; null for the configured key, kept outside the database. */
  @Column({
    type: 'text',
    name: 'private_key',
    nullable: true,
    select: false,
    ...ASCII,
    comment:
      'PKCS#8 PEM private key; NULL for the configured key (OAUTH_PRIVATE_KEY or the key directory), kept outside the database. A secret: whoever reads it can sign tokens.',
  })
  privateKey!: string | null;

  /** SPKI PEM. */
  @Column({
    type: 'text',
    name: 'public_key',
    ...ASCII,
    comment: 'SPKI PEM public key, published in GET /oauth/jwks while the key is not retired.',
  })
  publicKey!: string;

  @Column({ type: 'datetime', name: 'created', comment: 'When the key was made or recorded, UTC.' })
  created!: Date;

  /** When it becomes the signing key; null for the configured key, which signs until a key of the database does. */
  @Column({
    type: 'datetime',
    name: 'signs_from',
    nullable: true,
    comment: 'When it becomes the signing key, UTC: a minute after keys:rotate, once every instance has it. NULL for the configured key.',
  })
  signsFrom!: Date | null;

  /** When it was retired: from then on it neither signs nor verifies. */
  @Column({
    type: 'datetime',
    name: 'retired_at',
    nullable: true,
    comment: 'When keys:retire retired it, UTC: from then on tokens it signed are refused. NULL while in use.',
  })
  retiredAt!: Date | null;
}
