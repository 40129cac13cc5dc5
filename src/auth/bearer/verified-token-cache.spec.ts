import { jest } from '@jest/globals';
import { UnsecuredJWT } from 'jose';
import type { AccessTokenClaims, AccessTokensService } from '../tokens/access-tokens.service.js';
import { MAX_VERIFIED_TOKENS, VerifiedTokenCache } from './verified-token-cache.js';

const NOW = 1_800_000_000;
const at = (seconds: number) => new Date(seconds * 1000);
const tokenExpiringAt = (exp: number, jti = 'jti-1') => new UnsecuredJWT({ jti }).setExpirationTime(exp).encode();
const claimsOf = (token: string): AccessTokenClaims => ({ jti: token, uid: 7, clientId: 'client-1' });

describe(VerifiedTokenCache.name, () => {
  let sut: VerifiedTokenCache;
  let verify: jest.Mock<(token: string, now: Date) => Promise<AccessTokenClaims | null>>;

  beforeEach(() => {
    // Stands in for the RS256 check: valid until `exp` with AccessTokensService's 1 s leeway.
    verify = jest.fn(async (token: string, now: Date) => {
      const exp = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).exp as number;
      return exp > Math.floor(now.getTime() / 1000) - 1 ? claimsOf(token) : null;
    });
    sut = new VerifiedTokenCache({ verify } as unknown as AccessTokensService);
  });

  it('verifies a token once and answers later requests with the same claims', async () => {
    const token = tokenExpiringAt(NOW + 3600);

    const first = await sut.verify(token, at(NOW));
    const second = await sut.verify(token, at(NOW + 60));

    expect(first).toEqual(claimsOf(token));
    expect(second).toEqual(first);
    expect(verify).toHaveBeenCalledTimes(1);
  });

  it('refuses a remembered token once it has expired, as the verification would (1 s leeway)', async () => {
    const token = tokenExpiringAt(NOW + 300);
    await sut.verify(token, at(NOW));

    await expect(sut.verify(token, at(NOW + 300))).resolves.not.toBeNull();
    await expect(sut.verify(token, at(NOW + 301))).resolves.toBeNull();
    await expect(sut.verify(token, at(NOW + 302))).resolves.toBeNull();
    expect(verify).toHaveBeenCalledTimes(3);
  });

  it('does not remember a token that failed verification', async () => {
    verify.mockResolvedValue(null);
    const token = tokenExpiringAt(NOW + 3600);

    await expect(sut.verify(token, at(NOW))).resolves.toBeNull();
    await expect(sut.verify(token, at(NOW))).resolves.toBeNull();
    expect(verify).toHaveBeenCalledTimes(2);
  });

  it(`remembers at most ${MAX_VERIFIED_TOKENS} tokens, forgetting expired ones first, then the oldest`, async () => {
    const expired = tokenExpiringAt(NOW + 10, 'expired');
    await sut.verify(expired, at(NOW));
    const live = Array.from({ length: MAX_VERIFIED_TOKENS }, (_, index) => tokenExpiringAt(NOW + 3600, `live-${index}`));
    for (const token of live) await sut.verify(token, at(NOW + 20));
    verify.mockClear();

    // The expired entry made room: every live token is still remembered.
    for (const token of live) await sut.verify(token, at(NOW + 20));
    expect(verify).not.toHaveBeenCalled();

    // A full cache of live tokens drops the oldest for a new one.
    await sut.verify(tokenExpiringAt(NOW + 3600, 'newest'), at(NOW + 20));
    await sut.verify(live.at(-1)!, at(NOW + 20));
    await sut.verify(live[0]!, at(NOW + 20));
    expect(verify.mock.calls.map(([token]) => token)).toEqual([tokenExpiringAt(NOW + 3600, 'newest'), live[0]]);
  });
});
