import { jest } from '@jest/globals';
import { UnsecuredJWT } from 'jose';
import type { KeyObject } from 'node:crypto';
import type { AccessTokenClaims, AccessTokensService } from '../tokens/access-tokens.service.js';
import type { Refused } from '../tokens/token-refusal.js';
import { MAX_VERIFIED_TOKENS, VerifiedTokenCache } from './verified-token-cache.js';

const NOW = 1_800_000_000;
const tokenExpiringAt = (exp: number, jti = 'jti-1') => new UnsecuredJWT({ jti }).setExpirationTime(exp).encode();
const claimsOf = (token: string): AccessTokenClaims => ({ jti: token, uid: 7, clientId: 'client-1', kid: 'key-1' });

describe(VerifiedTokenCache.name, () => {
  let sut: VerifiedTokenCache;
  let verify: jest.Mock<(token: string, now: Date) => Promise<AccessTokenClaims | Refused>>;
  let nowMs: number;
  /** The keys not retired. */
  let liveKeys: Set<string>;
  const verifyAt = (token: string, seconds: number) => {
    nowMs = seconds * 1000;
    return sut.verify(token);
  };

  beforeEach(() => {
    // Stands in for the RS256 check: valid until `exp` with AccessTokensService's 1 s leeway.
    verify = jest.fn(async (token: string, now: Date) => {
      const exp = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).exp as number;
      return exp > Math.floor(now.getTime() / 1000) - 1 ? claimsOf(token) : { refused: 'expired' as const };
    });
    liveKeys = new Set(['key-1']);
    const keys = { verificationKey: (kid: string | undefined) => (kid && liveKeys.has(kid) ? ({} as KeyObject) : undefined) };
    sut = new VerifiedTokenCache({ verify } as unknown as AccessTokensService, keys, { now: () => nowMs });
  });

  it('verifies a token once and answers later requests with the same claims', async () => {
    const token = tokenExpiringAt(NOW + 3600);

    const first = await verifyAt(token, NOW);
    const second = await verifyAt(token, NOW + 60);

    expect(first).toEqual(claimsOf(token));
    expect(second).toEqual(first);
    expect(verify).toHaveBeenCalledTimes(1);
  });

  it('refuses a remembered token once it has expired, as the verification would (1 s leeway)', async () => {
    const token = tokenExpiringAt(NOW + 300);
    await verifyAt(token, NOW);

    await expect(verifyAt(token, NOW + 300)).resolves.toEqual(claimsOf(token));
    await expect(verifyAt(token, NOW + 301)).resolves.toEqual({ refused: 'expired' });
    await expect(verifyAt(token, NOW + 302)).resolves.toEqual({ refused: 'expired' });
    expect(verify).toHaveBeenCalledTimes(3);
  });

  it('refuses a remembered token once its signing key is retired, and forgets it', async () => {
    const token = tokenExpiringAt(NOW + 3600);
    await verifyAt(token, NOW);

    liveKeys.delete('key-1');

    await expect(verifyAt(token, NOW + 1)).resolves.toEqual({ refused: 'invalid' });
    liveKeys.add('key-1');
    await expect(verifyAt(token, NOW + 2)).resolves.toEqual(claimsOf(token));
    expect(verify).toHaveBeenCalledTimes(2);
  });

  it('does not remember a token that failed verification', async () => {
    verify.mockResolvedValue({ refused: 'invalid' });
    const token = tokenExpiringAt(NOW + 3600);

    await expect(verifyAt(token, NOW)).resolves.toEqual({ refused: 'invalid' });
    await expect(verifyAt(token, NOW)).resolves.toEqual({ refused: 'invalid' });
    expect(verify).toHaveBeenCalledTimes(2);
  });

  it(`remembers at most ${MAX_VERIFIED_TOKENS} tokens, forgetting the least recently used first`, async () => {
    const expired = tokenExpiringAt(NOW + 10, 'expired');
    await verifyAt(expired, NOW);
    const live = Array.from({ length: MAX_VERIFIED_TOKENS }, (_, index) => tokenExpiringAt(NOW + 3600, `live-${index}`));
    for (const token of live) await verifyAt(token, NOW + 20);
    verify.mockClear();

    // The expired entry made room: every live token is still remembered.
    for (const token of live) await verifyAt(token, NOW + 20);
    expect(verify).not.toHaveBeenCalled();

    // A full cache of live tokens drops the oldest for a new one.
    await verifyAt(tokenExpiringAt(NOW + 3600, 'newest'), NOW + 20);
    await verifyAt(live.at(-1)!, NOW + 20);
    await verifyAt(live[0]!, NOW + 20);
    expect(verify.mock.calls.map(([token]) => token)).toEqual([tokenExpiringAt(NOW + 3600, 'newest'), live[0]]);
  });
});
