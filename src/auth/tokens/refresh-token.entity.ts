import { Column, Entity, ForeignKey, Index } from 'typeorm';
import { ASCII } from '../../database/text-columns.js';
import { OAuthClientEntity } from '../clients/oauth-client.entity.js';
import { UserEntity } from '../users/user.entity.js';
import { IssuedTokenColumns } from './issued-token.columns.js';

/** An issued refresh token, stored only as the SHA-256 digest of the opaque value handed out. */
@Entity({ name: 'oauth_refresh_tokens', comment: 'Issued refresh tokens, by digest: grant family, owner, expiry, revocation.' })
@Index('oauth_refresh_tokens_token_hash', ['tokenHash'], { unique: true })
@Index('oauth_refresh_tokens_family_id', ['familyId'])
@Index('oauth_refresh_tokens_expires_at', ['expiresAt'])
// Tokens die with their user or client.
@ForeignKey(() => UserEntity, ['uid'], ['uid'], { name: 'oauth_refresh_tokens_uid_fk', onDelete: 'CASCADE', onUpdate: 'NO ACTION' })
@ForeignKey(() => OAuthClientEntity, ['clientId'], ['clientId'], {
  name: 'oauth_refresh_tokens_client_fk',
  onDelete: 'CASCADE',
  onUpdate: 'NO ACTION',
})
export class RefreshTokenEntity extends IssuedTokenColumns {
  @Column({
    type: 'varchar',
    name: 'token_hash',
    length: 64,
    ...ASCII,
    comment: 'Hex SHA-256 of the opaque refresh token handed out.',
  })
  tokenHash!: string;

  @Column({
    type: 'boolean',
    name: 'revoked',
    default: false,
    comment: '1 once used (each refresh token works once) or revoked.',
  })
  revoked!: boolean;

  @Column({
    type: 'datetime',
    name: 'revoked_at',
    nullable: true,
    comment: 'When it was used or revoked, UTC; NULL while in force.',
  })
  revokedAt!: Date | null;
}
