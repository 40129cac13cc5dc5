import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, LessThan, Repository } from 'typeorm';
import { UserEntity } from '../../auth/users/user.entity.js';
import { ExpiringCache } from '../../common/cache/expiring-cache.js';
import { sha256 } from '../../common/crypto/sha256.js';
import { CLOCK, type Clock } from '../../common/time/clock.js';
import { wholeSeconds } from '../../common/time/whole-seconds.js';
import { IntegrationEntity } from '../integration.entity.js';
import type { IntegrationCaller } from './integration-caller.js';

/**
 * How long one key's database answer is reused. Revoking a key or blocking its user must reach every
 * instance within 5 seconds (docs/interface.md#integration-keys).
 */
export const INTEGRATION_KEY_CACHE_MS = 4000;
/** Keys whose answer is remembered: a network server sends one key with every uplink, so few are live. */
const MAX_CACHED_KEYS = 10_000;
/** `last_used_at` is written at most this often per key and instance: a write per uplink would double the work. */
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * What the database says about a presented key. Unknown keys are remembered too: one can only become
 * known by being generated, and a random key presented before it exists never will be.
 */
export type IntegrationKeyState =
  | { kind: 'unknown' }
  | { kind: 'revoked' }
  | { kind: 'valid'; caller: IntegrationCaller; userActive: boolean; mayCreateSensorRecords: boolean };

/** Resolves an integration key to its integration and user, briefly cached per instance. */
@Injectable()
export class IntegrationKeyStateService {
  private readonly cache: ExpiringCache<string, IntegrationKeyState>;

  constructor(
    @InjectRepository(IntegrationEntity) private readonly integrations: Repository<IntegrationEntity>,
    @InjectRepository(UserEntity) private readonly users: Repository<UserEntity>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.cache = new ExpiringCache({ maxEntries: MAX_CACHED_KEYS, ttlMs: INTEGRATION_KEY_CACHE_MS, clock });
  }

  async resolve(key: string): Promise<IntegrationKeyState> {
    // Keyed and looked up by digest: neither the cache nor the table holds a usable key.
    const digest = sha256(key);
    const cached = this.cache.get(digest);
    if (cached) return cached;
    const state = await this.load(digest);
    this.cache.set(digest, state);
    return state;
  }

  private async load(digest: string): Promise<IntegrationKeyState> {
    const integration = await this.integrations.findOneBy({ keyHash: digest });
    if (!integration) return { kind: 'unknown' };
    if (integration.revokedAt) return { kind: 'revoked' };
    const user = await this.users.findOneBy({ uid: integration.uid });
    if (!user) return { kind: 'unknown' };
    await this.noteUse(integration.id);
    return {
      kind: 'valid',
      caller: {
        integrationId: integration.id,
        network: integration.network,
        label: integration.label,
        devIdSource: integration.devIdSource,
        user: { uid: user.uid, uuid: user.uuid, name: user.name },
      },
      userActive: user.status,
      mayCreateSensorRecords: user.mayCreateSensorRecords,
    };
  }

  /** Records the use for integration:list, to within a minute: one conditional UPDATE that usually changes nothing. */
  private async noteUse(id: number): Promise<void> {
    const now = this.clock.now();
    await this.integrations.update(
      [
        { id, lastUsedAt: IsNull() },
        { id, lastUsedAt: LessThan(new Date(now - LAST_USED_RESOLUTION_MS)) },
      ],
      {
        lastUsedAt: wholeSeconds(new Date(now)),
      },
    );
  }
}
