import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Repository } from 'typeorm';
import type { AppConfig } from '../../config/app-config.js';
import { SigningKeyError } from './configured-key.js';
import type { SigningKeyEntity } from './signing-key.entity.js';
import { KEY_REFRESH_SECONDS, SigningKeysService } from './signing-keys.service.js';

/** No key in the database. */
const emptyTable = { find: async () => [] } as unknown as Repository<SigningKeyEntity>;

describe(SigningKeysService.name, () => {
  let parent: string;
  let warn: jest.SpiedFunction<Logger['warn']>;
  const service = (environment: AppConfig['environment']) =>
    new SigningKeysService(emptyTable, { now: () => Date.now() }, {
      environment,
      tokens: { keyDirectory: join(parent, 'keys'), accessTokenTtl: 300, refreshTokenTtl: 3600 },
    } as AppConfig);

  beforeEach(() => {
    parent = mkdtempSync(join(tmpdir(), 'signing-keys-service-'));
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });

  afterEach(() => {
    warn.mockRestore();
    rmSync(parent, { recursive: true, force: true });
  });

  it('generates a pair where there was none outside production, and says in the log to back it up, once', async () => {
    const first = service('development');
    await first.onModuleInit();
    await service('development').onModuleInit();

    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toMatch(
      new RegExp(
        `^Generated a new signing key pair in ${join(parent, 'keys')} \\(kid ${first.signingKey().kid}\\), where there was none: back it up with the database`,
      ),
    );
  });

  it(`reads the keys of the database again every ${KEY_REFRESH_SECONDS} s, until it shuts down`, async () => {
    const find = jest.fn(async () => []);
    const sut = new SigningKeysService({ find } as unknown as Repository<SigningKeyEntity>, { now: () => Date.now() }, {
      environment: 'development',
      tokens: { keyDirectory: join(parent, 'keys'), accessTokenTtl: 300, refreshTokenTtl: 3600 },
    } as AppConfig);
    await sut.onModuleInit();
    find.mockClear();
    jest.useFakeTimers();
    try {
      sut.onApplicationBootstrap();
      await jest.advanceTimersByTimeAsync(KEY_REFRESH_SECONDS * 1000 - 1);
      expect(find).not.toHaveBeenCalled();
      await jest.advanceTimersByTimeAsync(1);
      expect(find).toHaveBeenCalledTimes(1);
      await jest.advanceTimersByTimeAsync(KEY_REFRESH_SECONDS * 1000);
      expect(find).toHaveBeenCalledTimes(2);

      await sut.beforeApplicationShutdown();
      await jest.advanceTimersByTimeAsync(KEY_REFRESH_SECONDS * 1000 * 3);
      expect(find).toHaveBeenCalledTimes(2);
    } finally {
      jest.useRealTimers();
    }
  });

  it('refuses to start in production without a configured key or one in the database, in one line naming the variables', async () => {
    const start = service('production').onModuleInit();

    await expect(start).rejects.toBeInstanceOf(SigningKeyError);
    await expect(service('production').onModuleInit()).rejects.toThrow(
      /^OAUTH_PRIVATE_KEY and OAUTH_PUBLIC_KEY must be set in production[^\n]*$/,
    );
  });
});
