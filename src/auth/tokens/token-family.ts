import type { EntityManager } from 'typeorm';
import { toColumnValue } from '../../database/plain-sql.js';
import { AccessTokenEntity } from './access-token.entity.js';
import { RefreshTokenEntity } from './refresh-token.entity.js';

/** Revokes every refresh and access token descended from the password grant `familyId` started. */
export async function revokeFamily(manager: EntityManager, familyId: string, now: Date): Promise<void> {
  const revokedAt = toColumnValue(manager, RefreshTokenEntity, 'revokedAt', now);
  await manager.query('UPDATE oauth_refresh_tokens SET revoked = 1, revoked_at = ? WHERE family_id = ? AND revoked = 0', [
    revokedAt,
    familyId,
  ]);
  await manager.query('UPDATE oauth_access_tokens SET revoked = 1 WHERE family_id = ? AND revoked = 0', [familyId]);
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
