import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A token signing key kept in the database, shared by every instance (docs/interface.md#signing-keys):
 * made by `keys:rotate`, or recorded by `keys:retire` for the configured key (OAUTH_PRIVATE_KEY or the
 * key directory), whose private key stays where it is configured.
 */
@Entity({ name: 'oauth_signing_keys' })
export class SigningKeyEntity {
  /** The public key's JWK thumbprint (RFC 7638), the `kid` of the tokens it signs. */
  @PrimaryColumn({ type: 'varchar', name: 'kid', length: 64 })
  kid!: string;

  /** PKCS#8 PEM; null for the configured key, kept outside the database. */
  @Column({ type: 'text', name: 'private_key', nullable: true, select: false })
  privateKey!: string | null;

  /** SPKI PEM. */
  @Column({ type: 'text', name: 'public_key' })
  publicKey!: string;

  @Column({ type: 'datetime', name: 'created' })
  created!: Date;

  /** When it becomes the signing key; null for the configured key, which signs until a key of the database does. */
  @Column({ type: 'datetime', name: 'signs_from', nullable: true })
  signsFrom!: Date | null;

  /** When it was retired: from then on it neither signs nor verifies. */
  @Column({ type: 'datetime', name: 'retired_at', nullable: true })
  retiredAt!: Date | null;
}
