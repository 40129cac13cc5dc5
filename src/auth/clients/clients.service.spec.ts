import { jest } from '@jest/globals';
import type { Repository } from 'typeorm';
import { CLIENT_CACHE_MS, ClientsService, sha256Hex } from './clients.service.js';
import type { OAuthClientEntity } from './oauth-client.entity.js';

const client = Object.freeze({ clientId: 'client-1', label: 'gateway', secretHash: sha256Hex('s3cret') }) as OAuthClientEntity;

describe(ClientsService.name, () => {
  let sut: ClientsService;
  let getOne: jest.Mock<() => Promise<OAuthClientEntity | null>>;

  beforeEach(() => {
    getOne = jest.fn<() => Promise<OAuthClientEntity | null>>().mockResolvedValue(client);
    const queryBuilder = { addSelect: () => queryBuilder, where: () => queryBuilder, getOne };
    sut = new ClientsService({ createQueryBuilder: () => queryBuilder } as unknown as Repository<OAuthClientEntity>);
  });

  describe('authenticate', () => {
    it('reuses the client row for less than 5 seconds, then reads it again', async () => {
      await expect(sut.authenticate('client-1', 's3cret', 0)).resolves.toBe(client);
      getOne.mockResolvedValue(null);

      await expect(sut.authenticate('client-1', 's3cret', CLIENT_CACHE_MS - 1)).resolves.toBe(client);
      await expect(sut.authenticate('client-1', 's3cret', CLIENT_CACHE_MS)).resolves.toBeNull();
      expect(CLIENT_CACHE_MS).toBeLessThanOrEqual(5000);
      expect(getOne).toHaveBeenCalledTimes(2);
    });

    it('checks the secret on every call, cached or not', async () => {
      await sut.authenticate('client-1', 's3cret', 0);

      await expect(sut.authenticate('client-1', 'wrong', 1)).resolves.toBeNull();
      expect(getOne).toHaveBeenCalledTimes(1);
    });

    it('does not remember an unknown client', async () => {
      getOne.mockResolvedValueOnce(null);

      await expect(sut.authenticate('client-1', 's3cret', 0)).resolves.toBeNull();
      await expect(sut.authenticate('client-1', 's3cret', 1)).resolves.toBe(client);
    });
  });
});
