import { Column, Entity, ForeignKey, Index } from 'typeorm';
import { ASCII } from '../../database/text-columns.js';
import { OAuthClientEntity } from '../clients/oauth-client.entity.js';
import { UserEntity } from '../users/user.entity.js';
import { IssuedTokenColumns } from './issued-token.columns.js';

/**
 * A record of every access token issued (the JWT itself is not stored), so that revoking a token
 * family also revokes the access tokens still in flight.
 */
@Entity({
  name: 'oauth_access_tokens',
  comment: 'Issued access tokens, by JWT id (the token itself is not stored), so they can be revoked before they expire.',
})
@Index('oauth_access_tokens_jti', ['jti'], { unique: true })
@Index('oauth_access_tokens_family_id', ['familyId'])
@Index('oauth_access_tokens_expires_at', ['expiresAt'])
// Tokens die with their user or client.
@ForeignKey(() => UserEntity, ['uid'], ['uid'], { name: 'oauth_access_tokens_uid_fk', onDelete: 'CASCADE', onUpdate: 'NO ACTION' })
@ForeignKey(() => OAuthClientEntity, ['clientId'], ['clientId'], {
  name: 'oauth_access_tokens_client_fk',
  onDelete: 'CASCADE',
  onUpdate: 'NO ACTION',
})
export class AccessTokenEntity extends IssuedTokenColumns {
  @Column({ type: 'varchar', name: 'jti', length: 64, ...ASCII, comment: 'The JWT id (jti claim) of the access token.' })
  jti!: string;

  @Column({ type: 'boolean', name: 'revoked', default: false, comment: '1 revoked: refused by the bearer check within 5 s.' })
  revoked!: boolean;
}
