import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { ExpiringCache } from '../../common/cache/expiring-cache.js';
import { CLOCK, type Clock } from '../../common/time/clock.js';
import type { AuthenticatedUser } from '../authenticated-user.js';
import type { AccessTokenClaims } from '../tokens/access-tokens.service.js';
import { AccessTokenEntity } from '../tokens/access-token.entity.js';
import type { Refused } from '../tokens/token-refusal.js';
import { UserEntity } from '../users/user.entity.js';

/**
 * How long one token's database answer is reused. Blocking a user or revoking a family must reach
 * submissions within 5 seconds; everything else is read from the shared database.
 */
export const TOKEN_STATE_CACHE_MS = 4000;
/** Tokens whose answer is remembered: a device keeps one token for its lifetime, so this covers a large fleet. */
const MAX_CACHED_TOKENS = 10_000;

type TokenState = AuthenticatedUser | Refused;

interface CachedState {
  state: TokenState;
}

/** Resolves a verified token to its still-active user, or to why the token or user is no longer good. */
@Injectable()
export class TokenStateService {
  private readonly cache: ExpiringCache<string, CachedState>;

  constructor(
    @InjectRepository(AccessTokenEntity) private readonly accessTokens: Repository<AccessTokenEntity>,
    @InjectRepository(UserEntity) private readonly users: Repository<UserEntity>,
    @Inject(CLOCK) clock: Clock,
  ) {
    this.cache = new ExpiringCache({ maxEntries: MAX_CACHED_TOKENS, ttlMs: TOKEN_STATE_CACHE_MS, clock });
  }

  async resolve(claims: AccessTokenClaims): Promise<TokenState> {
    const key = cacheKey(claims);
    const cached = this.cache.get(key);
    if (cached) return cached.state;
    const state = await this.load(claims);
    this.cache.set(key, { state });
    return state;
  }

  private async load(claims: AccessTokenClaims): Promise<TokenState> {
    const token = await this.accessTokens.findOneBy({ jti: claims.jti });
    // A token of this issuer whose row is gone was removed with its client (client:delete).
    if (!token || token.revoked) return REVOKED;
    if (token.uid !== claims.uid || token.clientId !== claims.clientId) return { refused: 'invalid' };
    const user = await this.users.findOneBy({ uid: claims.uid });
    if (!user?.status) return { refused: 'user_blocked' };
    return {
      uid: user.uid,
      uuid: user.uuid,
      name: user.name,
      clientId: claims.clientId,
      mayCreateSensorRecords: user.mayCreateSensorRecords,
    };
  }
}

const REVOKED: Refused = Object.freeze({ refused: 'revoked' });

/**
 * The answer vouches for a token's jti together with the user and client it names, so all three
 * are the key: another token carrying the same jti (whatever its origin) gets a database answer of its own.
 */
function cacheKey(claims: AccessTokenClaims): string {
  return JSON.stringify([claims.jti, claims.uid, claims.clientId]);
}
