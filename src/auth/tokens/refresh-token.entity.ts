import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** An issued refresh token, stored only as the SHA-256 digest of the opaque value handed out. */
@Entity({ name: 'oauth_refresh_tokens' })
export class RefreshTokenEntity {
  @PrimaryGeneratedColumn({ type: 'int', name: 'id' })
  id!: number;

  @Column({ type: 'varchar', name: 'token_hash', length: 64 })
  tokenHash!: string;

  /** Every token descended from one password grant shares the grant's family id. */
  @Column({ type: 'varchar', name: 'family_id', length: 36 })
  familyId!: string;

  @Column({ type: 'varchar', name: 'client_id', length: 64 })
  clientId!: string;

  @Column({ type: 'int', name: 'uid' })
  uid!: number;

  @Column({ type: 'datetime', name: 'expires_at' })
  expiresAt!: Date;

  @Column({ type: 'boolean', name: 'revoked' })
  revoked!: boolean;

  @Column({ type: 'datetime', name: 'revoked_at', nullable: true })
  revokedAt!: Date | null;

  @Column({ type: 'datetime', name: 'created' })
  created!: Date;
}
