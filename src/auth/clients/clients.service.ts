import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { Repository } from 'typeorm';
import { ExpiringCache } from '../../common/cache/expiring-cache.js';
import { sha256 } from '../../common/crypto/sha256.js';
import { readLabel } from '../../common/text/label.js';
import { CLOCK, type Clock, systemClock } from '../../common/time/clock.js';
import { wholeSeconds } from '../../common/time/whole-seconds.js';
import { runInTransaction } from '../../database/run-in-transaction.js';
import { AccessTokenEntity } from '../tokens/access-token.entity.js';
import { RefreshTokenEntity } from '../tokens/refresh-token.entity.js';
import { UnknownClientError } from './client-errors.js';
import { OAuthClientEntity } from './oauth-client.entity.js';

export interface CreatedClient {
  clientId: string;
  /** Null for a public client. */
  clientSecret: string | null;
}

/** A client as listed: never its secret, only whether it has one. */
export interface ListedClient {
  clientId: string;
  label: string;
  created: Date;
  isPublic: boolean;
}

/**
 * How long a client row read for authentication is reused: every token grant authenticates its
 * client, and clients are only ever added. A client removed from the table (by an operator) stops
 * authenticating within this time.
 */
export const CLIENT_CACHE_MS = 5000;
/** Few clients exist (one per network-server integration). */
const MAX_CACHED_CLIENTS = 1000;

@Injectable()
export class ClientsService {
  private readonly cache: ExpiringCache<string, OAuthClientEntity>;

  constructor(
    @InjectRepository(OAuthClientEntity) private readonly clients: Repository<OAuthClientEntity>,
    @Inject(CLOCK) private readonly clock: Clock = systemClock,
  ) {
    this.cache = new ExpiringCache({ maxEntries: MAX_CACHED_CLIENTS, ttlMs: CLIENT_CACHE_MS, clock });
  }

  /**
   * Registers a client. A confidential one's secret (generated unless given) is returned once and kept
   * only as a digest; a public one (`isPublic`) has none.
   */
  async create(input: { label: string; secret?: string; isPublic?: boolean }): Promise<CreatedClient> {
    const label = readLabel(input.label);
    if (input.isPublic) {
      if (input.secret !== undefined) throw new RangeError('A public client has no secret: give --public or --secret, not both.');
      const clientId = randomUUID();
      await this.clients.insert({ clientId, label, secretHash: null, created: wholeSeconds(new Date(this.clock.now())) });
      return { clientId, clientSecret: null };
    }
    if (input.secret !== undefined && input.secret === '') throw new RangeError('The secret must not be empty.');
    const clientSecret = input.secret ?? randomBytes(32).toString('base64url');
    const clientId = randomUUID();
    await this.clients.insert({ clientId, label, secretHash: sha256(clientSecret), created: wholeSeconds(new Date(this.clock.now())) });
    return { clientId, clientSecret };
  }

  /**
   * Makes sure a public client of this id exists, creating it when it does not. Instances that start
   * together may all try: the unique index on client_id lets one INSERT through, and the others find
   * its row (after a duplicate-key refusal, or on a Galera cluster a certification conflict).
   * Throws when a client of that id exists and has a secret.
   */
  async providePublic(clientId: string, label: string): Promise<void> {
    if (await this.isPublic(clientId)) return;
    try {
      await this.clients.insert({
        clientId,
        label: readLabel(label),
        secretHash: null,
        created: wholeSeconds(new Date(this.clock.now())),
      });
    } catch (error) {
      if ((await this.isPublic(clientId)) === undefined) throw error;
    }
    if (!(await this.isPublic(clientId))) throw new RangeError(`The client "${clientId}" has a secret: it is not a public client.`);
  }

  /** Whether the client is public; undefined when there is no such client. Never answered from the cache. */
  async isPublic(clientId: string): Promise<boolean | undefined> {
    const client = await this.clients
      .createQueryBuilder('client')
      .addSelect('client.secretHash')
      .where('client.clientId = :clientId', { clientId })
      .getOne();
    return client ? client.secretHash === null : undefined;
  }

  /** Every client, oldest first, without secret digests. */
  async list(): Promise<ListedClient[]> {
    const clients = await this.clients.createQueryBuilder('client').addSelect('client.secretHash').orderBy('client.id', 'ASC').getMany();
    return clients.map(({ clientId, label, created, secretHash }) => ({ clientId, label, created, isPublic: secretHash === null }));
  }

  /**
   * Removes the client and every token issued to it, in one transaction: its access tokens are
   * refused once the bearer check's cached state expires, its refresh tokens at once. Returns the
   * number of tokens removed.
   */
  async delete(clientId: string): Promise<number> {
    const removed = await runInTransaction(this.clients.manager.connection, async (manager) => {
      // The token tables' foreign keys would cascade; deleting explicitly counts them and does not rely on it.
      const refresh = await manager.delete(RefreshTokenEntity, { clientId });
      const access = await manager.delete(AccessTokenEntity, { clientId });
      const client = await manager.delete(OAuthClientEntity, { clientId });
      return client.affected ? (refresh.affected ?? 0) + (access.affected ?? 0) : undefined;
    });
    this.cache.delete(clientId);
    if (removed === undefined) throw new UnknownClientError(clientId);
    return removed;
  }

  /** Asked when a grant fails on a client that may have been deleted meanwhile: never answered from the cache. */
  async exists(clientId: string): Promise<boolean> {
    this.cache.delete(clientId);
    return (await this.clients.countBy({ clientId })) > 0;
  }

  /**
   * The client when the credentials fit it, otherwise null: a confidential client's secret must match;
   * a public client has none, so it is known by its id alone and a secret sent with it is refused
   * (docs/interface.md#the-token-endpoint).
   */
  async authenticate(clientId: string, clientSecret: string): Promise<OAuthClientEntity | null> {
    const client = await this.findWithSecret(clientId);
    if (client && client.secretHash === null) return clientSecret === '' ? client : null;
    const presented = Buffer.from(sha256(clientSecret), 'hex');
    const stored = Buffer.from(client?.secretHash ?? sha256(''), 'hex');
    const matches = stored.length === presented.length && timingSafeEqual(stored, presented);
    return client && matches ? client : null;
  }

  /** Only found clients are remembered: an unknown id is asked of the database every time. */
  private async findWithSecret(clientId: string): Promise<OAuthClientEntity | null> {
    const cached = this.cache.get(clientId);
    if (cached) return cached;
    const client = await this.clients
      .createQueryBuilder('client')
      .addSelect('client.secretHash')
      .where('client.clientId = :clientId', { clientId })
      .getOne();
    if (!client) return null;
    this.cache.set(clientId, client);
    return client;
  }
}
