import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A registered OAuth client (Drupal's "consumer"). The secret is kept only as a SHA-256 digest. */
@Entity({ name: 'oauth_clients' })
export class OAuthClientEntity {
  @PrimaryGeneratedColumn({ type: 'int', name: 'id' })
  id!: number;

  @Column({ type: 'varchar', name: 'client_id', length: 64 })
  clientId!: string;

  @Column({ type: 'varchar', name: 'label', length: 255 })
  label!: string;

  /** Hex SHA-256 of the secret. */
  @Column({ type: 'varchar', name: 'secret_hash', length: 64, select: false })
  secretHash!: string;

  @Column({ type: 'datetime', name: 'created' })
  created!: Date;
}
