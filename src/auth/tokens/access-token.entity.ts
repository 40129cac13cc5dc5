import { Column, Entity } from 'typeorm';
import { IssuedTokenColumns } from './issued-token.columns.js';

/**
 * A record of every access token issued (the JWT itself is not stored), so that revoking a token
 * family also revokes the access tokens still in flight.
 */
@Entity({ name: 'oauth_access_tokens' })
export class AccessTokenEntity extends IssuedTokenColumns {
  @Column({ type: 'varchar', name: 'jti', length: 64 })
  jti!: string;
}
