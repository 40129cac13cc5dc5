import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A record of every access token issued (the JWT itself is not stored), so that revoking a token
 * family also revokes the access tokens still in flight.
 */
@Entity({ name: 'oauth_access_tokens' })
export class AccessTokenEntity {
  @PrimaryGeneratedColumn({ type: 'int', name: 'id' })
  id!: number;

  @Column({ type: 'varchar', name: 'jti', length: 64 })
  jti!: string;

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

  @Column({ type: 'datetime', name: 'created' })
  created!: Date;
}
