import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { sha256 } from '../../common/crypto/sha256.js';
import type { TokenGrant } from './access-tokens.service.js';
import { UserEntity } from '../users/user.entity.js';
import { RefreshTokenEntity } from './refresh-token.entity.js';

/** Opaque refresh tokens: 48 random bytes handed out once, kept only as their SHA-256 digest. */
@Injectable()
export class RefreshTokensService {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  async issue(manager: EntityManager, grant: TokenGrant, now: number): Promise<string> {
    const token = randomBytes(48).toString('base64url');
    await manager.insert(RefreshTokenEntity, {
      tokenHash: sha256(token),
      familyId: grant.familyId,
      clientId: grant.clientId,
      uid: grant.uid,
      expiresAt: new Date((now + this.config.tokens.refreshTokenTtl) * 1000),
      revoked: false,
      revokedAt: null,
      created: new Date(now * 1000),
    });
    return token;
  }

  /** The stored token and whether its user is active, in one statement (a refresh needs both). */
  async findWithUserStatus(manager: EntityManager, token: string): Promise<{ stored: RefreshTokenEntity; userActive: boolean } | null> {
    const { entities, raw } = await manager
      .createQueryBuilder(RefreshTokenEntity, 'token')
      .leftJoin(UserEntity, 'account', 'account.uid = token.uid')
      .addSelect('account.status', 'account_status')
      .where('token.tokenHash = :tokenHash', { tokenHash: sha256(token) })
      .getRawAndEntities<{ account_status: number | boolean | null }>();
    const [stored] = entities;
    if (!stored) return null;
    return { stored, userActive: Boolean(Number(raw[0]?.account_status ?? 0)) };
  }

  /**
   * Marks the token used. The conditional update is the arbiter between concurrent refreshes with the
   * same token: only the one that changed the row may issue a new pair.
   */
  async revoke(manager: EntityManager, id: number, now: Date): Promise<boolean> {
    const result = await manager.update(RefreshTokenEntity, { id, revoked: false }, { revoked: true, revokedAt: now });
    return result.affected === 1;
  }
}
