import type { EntityManager } from 'typeorm';
import { AccessTokenEntity } from './access-token.entity.js';
import { RefreshTokenEntity } from './refresh-token.entity.js';

/** Revokes every refresh and access token descended from the password grant `familyId` started. */
export async function revokeFamily(manager: EntityManager, familyId: string, now: Date): Promise<void> {
  await manager.update(RefreshTokenEntity, { familyId, revoked: false }, { revoked: true, revokedAt: now });
  await manager.update(AccessTokenEntity, { familyId, revoked: false }, { revoked: true });
}

/**
 * Revokes every refresh and access token issued to the user `uid`, whatever grant they descend from;
 * returns how many were still in force.
 */
export async function revokeUserTokens(manager: EntityManager, uid: number, now: Date): Promise<number> {
  const refresh = await manager.update(RefreshTokenEntity, { uid, revoked: false }, { revoked: true, revokedAt: now });
  const access = await manager.update(AccessTokenEntity, { uid, revoked: false }, { revoked: true });
  return (refresh.affected ?? 0) + (access.affected ?? 0);
}
