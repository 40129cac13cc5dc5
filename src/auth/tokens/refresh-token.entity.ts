import { Column, Entity } from 'typeorm';
import { IssuedTokenColumns } from './issued-token.columns.js';

/** An issued refresh token, stored only as the SHA-256 digest of the opaque value handed out. */
@Entity({ name: 'oauth_refresh_tokens' })
export class RefreshTokenEntity extends IssuedTokenColumns {
  @Column({ type: 'varchar', name: 'token_hash', length: 64 })
  tokenHash!: string;

  @Column({ type: 'datetime', name: 'revoked_at', nullable: true })
  revokedAt!: Date | null;
}
