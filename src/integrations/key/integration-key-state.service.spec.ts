import { jest } from '@jest/globals';
import { createHash } from 'node:crypto';
import type { Repository } from 'typeorm';
import type { UserEntity } from '../../auth/users/user.entity.js';
import type { IntegrationEntity } from '../integration.entity.js';
import { INTEGRATION_KEY_CACHE_MS, IntegrationKeyStateService } from './integration-key-state.service.js';

/** Any instant; the clock is never at zero. */
const START = 1_800_000_000_000;
const KEY = 'kM1tYk0aQxR7m3J9dP2wH5sV8cL4nB6fG0eZ1uA3yTq';
const integrationRow = (revokedAt: Date | null = null) => ({
  id: 3,
  uid: 7,
  network: 'tts',
  label: null,
  devIdSource: 'eui',
  revokedAt,
});
const userRow = (status = true) => ({ uid: 7, uuid: 'uuid-7', name: 'fleet-nz', status, mayCreateSensorRecords: true });

describe(IntegrationKeyStateService.name, () => {
  let sut: IntegrationKeyStateService;
  let now: number;
  let findIntegration: jest.Mock<(where: object) => Promise<unknown>>;
  let findUser: jest.Mock<(where: object) => Promise<unknown>>;
  let update: jest.Mock<(where: object, values: object) => Promise<unknown>>;

  beforeEach(() => {
    now = START;
    findIntegration = jest.fn<(where: object) => Promise<unknown>>().mockResolvedValue(integrationRow());
    findUser = jest.fn<(where: object) => Promise<unknown>>().mockResolvedValue(userRow());
    update = jest.fn<(where: object, values: object) => Promise<unknown>>().mockResolvedValue({ affected: 1 });
    sut = new IntegrationKeyStateService(
      { findOneBy: findIntegration, update } as unknown as Repository<IntegrationEntity>,
      { findOneBy: findUser } as unknown as Repository<UserEntity>,
      { now: () => now },
    );
  });

  it('looks the key up by its SHA-256 digest and resolves it to its integration and user', async () => {
    await expect(sut.resolve(KEY)).resolves.toEqual({
      kind: 'valid',
      caller: { integrationId: 3, network: 'tts', label: null, devIdSource: 'eui', user: { uid: 7, uuid: 'uuid-7', name: 'fleet-nz' } },
      userActive: true,
      mayCreateSensorRecords: true,
    });
    expect(findIntegration).toHaveBeenCalledWith({ keyHash: createHash('sha256').update(KEY).digest('hex') });
  });

  it.each([
    ['unknown', () => findIntegration.mockResolvedValue(null), { kind: 'unknown' }],
    ['revoked', () => findIntegration.mockResolvedValue(integrationRow(new Date(START - 1000))), { kind: 'revoked' }],
    ['of a user that is gone', () => findUser.mockResolvedValue(null), { kind: 'unknown' }],
  ])('tells a key that is %s', async (_case, arrange, state) => {
    arrange();

    await expect(sut.resolve(KEY)).resolves.toEqual(state);
  });

  it('reuses the answer for less than 5 seconds, then asks the database again', async () => {
    await sut.resolve(KEY);
    findUser.mockResolvedValue(userRow(false));

    now = START + INTEGRATION_KEY_CACHE_MS - 1;
    await expect(sut.resolve(KEY)).resolves.toMatchObject({ userActive: true });
    now = START + INTEGRATION_KEY_CACHE_MS;
    await expect(sut.resolve(KEY)).resolves.toMatchObject({ userActive: false });
    expect(INTEGRATION_KEY_CACHE_MS).toBeLessThanOrEqual(4000);
    expect(findIntegration).toHaveBeenCalledTimes(2);
  });

  it('remembers an unknown key too, for as long', async () => {
    findIntegration.mockResolvedValue(null);

    await sut.resolve(KEY);
    await sut.resolve(KEY);

    expect(findIntegration).toHaveBeenCalledTimes(1);
  });

  it('notes the use of a valid key, unless it was noted less than a minute ago', async () => {
    await sut.resolve(KEY);

    expect(update).toHaveBeenCalledTimes(1);
    const [where, values] = update.mock.calls[0]!;
    expect(values).toEqual({ lastUsedAt: new Date(START) });
    expect(JSON.stringify(where)).toContain(new Date(START - 60_000).toISOString());
  });
});
