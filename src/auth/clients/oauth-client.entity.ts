import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A registered OAuth client (Drupal's "consumer"). A confidential client's secret is kept only as a
 * SHA-256 digest; a public client (RFC 6749 §2.1: one that cannot keep a secret, as a page in a
 * browser) has none.
 */
@Entity({ name: 'oauth_clients' })
export class OAuthClientEntity {
  @PrimaryGeneratedColumn({ type: 'int', name: 'id' })
  id!: number;

  @Column({ type: 'varchar', name: 'client_id', length: 64 })
  clientId!: string;

  @Column({ type: 'varchar', name: 'label', length: 255 })
  label!: string;

  /** Hex SHA-256 of the secret; null for a public client. */
  @Column({ type: 'varchar', name: 'secret_hash', length: 64, nullable: true, select: false })
  secretHash!: string | null;

  @Column({ type: 'datetime', name: 'created' })
  created!: Date;
}
