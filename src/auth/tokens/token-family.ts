import type { EntityManager } from 'typeorm';
import { AccessTokenEntity } from './access-token.entity.js';
import { RefreshTokenEntity } from './refresh-token.entity.js';

/** Revokes every refresh and access token descended from the password grant `familyId` started. */
export async function revokeFamily(manager: EntityManager, familyId: string, now: Date): Promise<void> {
  await manager.update(RefreshTokenEntity, { familyId, revoked: false }, { revoked: true, revokedAt: now });
  await manager.update(AccessTokenEntity, { familyId, revoked: false }, { revoked: true });
}
