import { jest } from '@jest/globals';
import type { Repository } from 'typeorm';
import { sha256 } from '../../common/crypto/sha256.js';
import { CLIENT_CACHE_MS, ClientsService } from './clients.service.js';
import type { OAuthClientEntity } from './oauth-client.entity.js';

/** Any instant; the clock is never at zero. */
const START = 1_800_000_000_000;
const client = Object.freeze({ clientId: 'client-1', label: 'gateway', secretHash: sha256('s3cret') }) as OAuthClientEntity;

describe(ClientsService.name, () => {
  let sut: ClientsService;
  let getOne: jest.Mock<() => Promise<OAuthClientEntity | null>>;
  let now: number;

  beforeEach(() => {
    now = START;
    getOne = jest.fn<() => Promise<OAuthClientEntity | null>>().mockResolvedValue(client);
    const queryBuilder = { addSelect: () => queryBuilder, where: () => queryBuilder, getOne };
    sut = new ClientsService({ createQueryBuilder: () => queryBuilder } as unknown as Repository<OAuthClientEntity>, { now: () => now });
  });

  describe('authenticate', () => {
    it('reuses the client row for less than 5 seconds, then reads it again', async () => {
      await expect(sut.authenticate('client-1', 's3cret')).resolves.toBe(client);
      getOne.mockResolvedValue(null);

      now = START + CLIENT_CACHE_MS - 1;
      await expect(sut.authenticate('client-1', 's3cret')).resolves.toBe(client);
      now = START + CLIENT_CACHE_MS;
      await expect(sut.authenticate('client-1', 's3cret')).resolves.toBeNull();
      expect(CLIENT_CACHE_MS).toBeLessThanOrEqual(5000);
      expect(getOne).toHaveBeenCalledTimes(2);
    });

    it('checks the secret on every call, cached or not', async () => {
      await sut.authenticate('client-1', 's3cret');

      now += 1;
      await expect(sut.authenticate('client-1', 'wrong')).resolves.toBeNull();
      expect(getOne).toHaveBeenCalledTimes(1);
    });

    it('does not remember an unknown client', async () => {
      getOne.mockResolvedValueOnce(null);

      await expect(sut.authenticate('client-1', 's3cret')).resolves.toBeNull();
      now += 1;
      await expect(sut.authenticate('client-1', 's3cret')).resolves.toBe(client);
    });
  });
});
