import { decodeJwt } from 'jose';
import { ExpiringCache } from '../../common/cache/expiring-cache.js';
import { sha256 } from '../../common/crypto/sha256.js';
import type { Clock } from '../../common/time/clock.js';
import type { SigningKeysService } from '../keys/signing-keys.service.js';
import { AccessTokensService, CLOCK_LEEWAY_SECONDS, type AccessTokenClaims } from '../tokens/access-tokens.service.js';
import { isRefused, type Refused } from '../tokens/token-refusal.js';

/** Distinct live tokens remembered; a device keeps one token for its lifetime, so this covers a large fleet. */
export const MAX_VERIFIED_TOKENS = 10_000;

const RETIRED_KEY: Refused = Object.freeze({ refused: 'invalid' });

/**
 * Remembers which tokens passed signature and claims verification, until they expire: a device sends
 * the same token with every report, and the RS256 check was the largest single cost per request.
 * Only the token's own facts are cached; whether it was revoked or its user blocked is still asked
 * of TokenStateService on every request, and whether its signing key was retired of the key ring.
 */
export class VerifiedTokenCache {
  private readonly verified: ExpiringCache<string, AccessTokenClaims>;

  constructor(
    private readonly accessTokens: AccessTokensService,
    private readonly keys: Pick<SigningKeysService, 'verificationKey'>,
    /** The clock tokens are issued, verified and pruned by. */
    private readonly clock: Clock,
  ) {
    // Every entry has its own lifetime (its token's `exp`); this one is never used.
    this.verified = new ExpiringCache({ maxEntries: MAX_VERIFIED_TOKENS, ttlMs: Number.MAX_SAFE_INTEGER, clock });
  }

  /** As AccessTokensService.verify: the claims of a valid token now, or why it is refused. */
  async verify(token: string): Promise<AccessTokenClaims | Refused> {
    // Keyed by a digest so the cache holds no usable bearer token.
    const key = sha256(token, 'base64');
    const hit = this.verified.get(key);
    if (hit && this.keys.verificationKey(hit.kid)) return hit;
    if (hit) {
      // Its signing key has been retired since.
      this.verified.delete(key);
      return RETIRED_KEY;
    }
    const now = this.clock.now();
    const claims = await this.accessTokens.verify(token, new Date(now));
    if (isRefused(claims)) return claims;
    // The same expiry rule as the verification: valid until `exp` plus the leeway, `nbf` and `iat` only become truer with time.
    this.verified.set(key, claims, (decodeJwt(token).exp! + CLOCK_LEEWAY_SECONDS) * 1000 - now);
    return claims;
  }
}
