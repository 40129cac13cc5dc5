import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CLOCK, type Clock } from '../../common/time/clock.js';
import type { AuthenticatedUser } from '../authenticated-user.js';
import type { AccessTokenClaims } from '../tokens/access-tokens.service.js';
import { AccessTokenEntity } from '../tokens/access-token.entity.js';
import { UserEntity } from '../users/user.entity.js';

/**
 * How long one token's database answer is reused. Blocking a user or revoking a family must reach
 * submissions within 5 seconds; everything else is read from the shared database.
 */
export const TOKEN_STATE_CACHE_MS = 4000;
const MAX_CACHED_TOKENS = 10_000;

interface CachedState {
  user: AuthenticatedUser | null;
  until: number;
}

/** Resolves a verified token to its still-active user, or null when the token or user is no longer good. */
@Injectable()
export class TokenStateService {
  private readonly cache = new Map<string, CachedState>();

  constructor(
    private readonly dataSource: DataSource,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async resolve(claims: AccessTokenClaims): Promise<AuthenticatedUser | null> {
    const now = this.clock.now();
    const key = cacheKey(claims);
    const cached = this.cache.get(key);
    if (cached && cached.until > now) return cached.user;
    const user = await this.load(claims);
    this.cache.delete(key);
    if (this.cache.size >= MAX_CACHED_TOKENS) this.evict(now);
    this.cache.set(key, { user, until: now + TOKEN_STATE_CACHE_MS });
    return user;
  }

  private async load(claims: AccessTokenClaims): Promise<AuthenticatedUser | null> {
    const token = await this.dataSource.getRepository(AccessTokenEntity).findOneBy({ jti: claims.jti });
    if (!token || token.revoked || token.uid !== claims.uid || token.clientId !== claims.clientId) return null;
    const user = await this.dataSource.getRepository(UserEntity).findOneBy({ uid: claims.uid });
    if (!user?.status) return null;
    return {
      uid: user.uid,
      uuid: user.uuid,
      name: user.name,
      clientId: claims.clientId,
      mayCreateSensorRecords: user.mayCreateSensorRecords,
    };
  }

  private evict(now: number): void {
    for (const [key, state] of this.cache) if (state.until <= now) this.cache.delete(key);
    // Still full of live entries: drop the oldest (Map iteration follows insertion order).
    for (const key of this.cache.keys()) {
      if (this.cache.size < MAX_CACHED_TOKENS) break;
      this.cache.delete(key);
    }
  }
}

/**
 * The answer vouches for a token's jti together with the user and client it names, so all three
 * are the key: another token carrying the same jti (whatever its origin) gets a database answer of its own.
 */
function cacheKey(claims: AccessTokenClaims): string {
  return JSON.stringify([claims.jti, claims.uid, claims.clientId]);
}
