import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { sha256Hex } from '../clients/clients.service.js';
import type { TokenGrant } from './access-tokens.service.js';
import { RefreshTokenEntity } from './refresh-token.entity.js';

/** Opaque refresh tokens: 48 random bytes handed out once, kept only as their SHA-256 digest. */
@Injectable()
export class RefreshTokensService {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  async issue(manager: EntityManager, grant: TokenGrant, now: number): Promise<string> {
    const token = randomBytes(48).toString('base64url');
    await manager.insert(RefreshTokenEntity, {
      tokenHash: sha256Hex(token),
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

  find(manager: EntityManager, token: string): Promise<RefreshTokenEntity | null> {
    return manager.findOneBy(RefreshTokenEntity, { tokenHash: sha256Hex(token) });
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
