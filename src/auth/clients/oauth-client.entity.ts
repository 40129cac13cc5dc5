import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { ASCII, UNICODE } from '../../database/text-columns.js';

/**
 * A registered OAuth client (Drupal's "consumer"). A confidential client's secret is kept only as a
 * SHA-256 digest; a public client (RFC 6749 §2.1: one that cannot keep a secret, as a page in a
 * browser) has none.
 */
@Entity({ name: 'oauth_clients', comment: 'Registered OAuth clients (Drupal consumers).' })
@Index('oauth_clients_client_id', ['clientId'], { unique: true })
export class OAuthClientEntity {
  @PrimaryGeneratedColumn({ type: 'int', name: 'id', comment: 'Row id.' })
  id!: number;

  @Column({ type: 'varchar', name: 'client_id', length: 64, ...ASCII, comment: 'Public client id (UUID v4), sent as client_id.' })
  clientId!: string;

  @Column({ type: 'varchar', name: 'label', length: 255, ...UNICODE, comment: 'Name the operator gave the client.' })
  label!: string;

  /** Hex SHA-256 of the secret; null for a public client. */
  @Column({
    type: 'varchar',
    name: 'secret_hash',
    length: 64,
    nullable: true,
    select: false,
    ...ASCII,
    comment:
      'Hex SHA-256 of the client secret; the secret itself is never stored. NULL for a public client (RFC 6749 section 2.1), which has no secret.',
  })
  secretHash!: string | null;

  @Column({ type: 'datetime', name: 'created', comment: 'When the client was registered, UTC.' })
  created!: Date;
}
