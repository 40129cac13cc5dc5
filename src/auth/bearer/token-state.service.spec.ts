import { jest } from '@jest/globals';
import type { Repository } from 'typeorm';
import type { AccessTokenEntity } from '../tokens/access-token.entity.js';
import type { UserEntity } from '../users/user.entity.js';
import { TOKEN_STATE_CACHE_MS, TokenStateService } from './token-state.service.js';

/** Any instant; the clock is never at zero. */
const START = 1_800_000_000_000;
const claims = Object.freeze({ jti: 'a'.repeat(64), uid: 7, clientId: 'client-1', kid: 'key-1' });
const tokenRow = (revoked = false) => ({ jti: claims.jti, uid: 7, clientId: 'client-1', revoked });
const userRow = (status = true) => ({ uid: 7, uuid: 'uuid-7', name: 'gateway', status, mayCreateSensorRecords: true });

describe(TokenStateService.name, () => {
  let sut: TokenStateService;
  let now: number;
  let findToken: jest.Mock<(where: object) => Promise<unknown>>;
  let findUser: jest.Mock<(where: object) => Promise<unknown>>;

  beforeEach(() => {
    now = START;
    findToken = jest.fn<(where: object) => Promise<unknown>>().mockResolvedValue(tokenRow());
    findUser = jest.fn<(where: object) => Promise<unknown>>().mockResolvedValue(userRow());
    sut = new TokenStateService(
      { findOneBy: findToken } as unknown as Repository<AccessTokenEntity>,
      { findOneBy: findUser } as unknown as Repository<UserEntity>,
      { now: () => now },
    );
  });

  it('resolves an issued token of an active user to that user', async () => {
    await expect(sut.resolve(claims)).resolves.toEqual({
      uid: 7,
      uuid: 'uuid-7',
      name: 'gateway',
      clientId: 'client-1',
      mayCreateSensorRecords: true,
    });
    expect(findToken).toHaveBeenCalledWith({ jti: claims.jti });
  });

  it.each([
    ['the token is unknown (its client was deleted)', () => findToken.mockResolvedValue(null), 'revoked'],
    ['the token family is revoked', () => findToken.mockResolvedValue(tokenRow(true)), 'revoked'],
    ['the token belongs to another user', () => findToken.mockResolvedValue({ ...tokenRow(), uid: 8 }), 'invalid'],
    ['the token belongs to another client', () => findToken.mockResolvedValue({ ...tokenRow(), clientId: 'client-2' }), 'invalid'],
    ['the user is gone', () => findUser.mockResolvedValue(null), 'user_blocked'],
    ['the user is blocked', () => findUser.mockResolvedValue(userRow(false)), 'user_blocked'],
  ])('refuses when %s, saying why', async (_case, arrange, reason) => {
    arrange();

    await expect(sut.resolve(claims)).resolves.toEqual({ refused: reason });
  });

  it('reuses the answer for less than 5 seconds, then asks the database again', async () => {
    await sut.resolve(claims);
    findUser.mockResolvedValue(userRow(false));

    now = START + TOKEN_STATE_CACHE_MS - 1;
    await expect(sut.resolve(claims)).resolves.toHaveProperty('uid', 7);
    now = START + TOKEN_STATE_CACHE_MS;
    await expect(sut.resolve(claims)).resolves.toEqual({ refused: 'user_blocked' });
    expect(TOKEN_STATE_CACHE_MS).toBeLessThanOrEqual(5000);
    expect(findToken).toHaveBeenCalledTimes(2);
  });

  it.each([
    ['another user', { ...claims, uid: 8 }],
    ['another client', { ...claims, clientId: 'client-2' }],
  ])('does not give a cached answer to a token with the same jti naming %s', async (_case, other) => {
    await sut.resolve(claims);

    await expect(sut.resolve(other)).resolves.toEqual({ refused: 'invalid' });
    expect(findToken).toHaveBeenCalledTimes(2);
  });
});
