import { Injectable } from '@nestjs/common';
import { decodeJwt } from 'jose';
import { createHash } from 'node:crypto';
import { AccessTokensService, CLOCK_LEEWAY_SECONDS, type AccessTokenClaims } from '../tokens/access-tokens.service.js';

/** Distinct live tokens remembered; a device keeps one token for its lifetime, so this covers a large fleet. */
export const MAX_VERIFIED_TOKENS = 10_000;

interface VerifiedToken {
  claims: AccessTokenClaims;
  /** The token's `exp`, in seconds. */
  expiresAt: number;
}

/**
 * Remembers which tokens passed signature and claims verification, until they expire: a device sends
 * the same token with every report, and the RS256 check was the largest single cost per request.
 * Only the token's own facts are cached; whether it was revoked or its user blocked is still asked
 * of TokenStateService on every request.
 */
@Injectable()
export class VerifiedTokenCache {
  private readonly verified = new Map<string, VerifiedToken>();

  constructor(private readonly accessTokens: AccessTokensService) {}

  /** As AccessTokensService.verify: the claims of a valid token at `now`, or null. */
  async verify(token: string, now = new Date()): Promise<AccessTokenClaims | null> {
    // Keyed by a digest so the cache holds no usable bearer token.
    const key = createHash('sha256').update(token).digest('base64');
    const nowSeconds = Math.floor(now.getTime() / 1000);
    const hit = this.verified.get(key);
    // The same expiry rule as the verification (1 s leeway); `nbf` and `iat` only become truer with time.
    if (hit && hit.expiresAt > nowSeconds - CLOCK_LEEWAY_SECONDS) return hit.claims;
    if (hit) this.verified.delete(key);
    const claims = await this.accessTokens.verify(token, now);
    if (!claims) return null;
    this.remember(key, { claims, expiresAt: decodeJwt(token).exp! }, nowSeconds);
    return claims;
  }

  private remember(key: string, entry: VerifiedToken, nowSeconds: number): void {
    if (this.verified.size >= MAX_VERIFIED_TOKENS) {
      for (const [stored, { expiresAt }] of this.verified) if (expiresAt <= nowSeconds - CLOCK_LEEWAY_SECONDS) this.verified.delete(stored);
      // Still full of live tokens: forget the oldest (Map iteration follows insertion order).
      for (const stored of this.verified.keys()) {
        if (this.verified.size < MAX_VERIFIED_TOKENS) break;
        this.verified.delete(stored);
      }
    }
    this.verified.set(key, entry);
  }
}
