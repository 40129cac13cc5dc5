import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { generateKeyPairSync } from 'node:crypto';
import { IsNull, type Repository } from 'typeorm';
import { CLOCK, type Clock } from '../../../common/time/clock.js';
import { APP_CONFIG, type AppConfig } from '../../../config/app-config.js';
import { CLOCK_LEEWAY_SECONDS } from '../../tokens/access-tokens.service.js';
import { readConfiguredKey } from '../configured-key.js';
import { KeyRing, type RingKey } from '../key-ring.js';
import { configuredRingKey, keyIdOf, storedRingKey } from '../ring-key.js';
import { SigningKeyEntity } from '../signing-key.entity.js';
import { KEY_ROTATION_NOTICE_SECONDS } from '../signing-keys.service.js';
import { KeyRetirementRefusedError, UnknownSigningKeyError } from './signing-key-errors.js';

/** Two instances' clocks may differ by this much (docs/interface.md#paging-and-its-guarantee). */
const CLOCK_SPREAD_SECONDS = 1;

type KeyState = 'signing' | 'next' | 'verifying' | 'retired';

export interface ListedKey {
  kid: string;
  source: RingKey['source'];
  state: KeyState;
  created: Date | null;
  signsFrom: Date | null;
  retiredAt: Date | null;
  /** From when `keys:retire` takes it without --force; null while it signs, or once retired. */
  retirableFrom: Date | null;
}

/**
 * What `keys:rotate`, `keys:list` and `keys:retire` do (docs/interface.md#signing-keys). The configured
 * key is the one this command line's configuration names (the same settings as the service's), read but
 * never generated.
 */
@Injectable()
export class SigningKeysAdmin {
  constructor(
    @InjectRepository(SigningKeyEntity) private readonly stored: Repository<SigningKeyEntity>,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** A new key pair, which signs KEY_ROTATION_NOTICE_SECONDS from now, once every instance has it. */
  async rotate(): Promise<{ kid: string; signsFrom: Date }> {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const now = this.clock.now();
    const row = this.stored.create({
      kid: await keyIdOf(publicKey),
      privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      created: new Date(now),
      signsFrom: new Date(wholeSecond(now) + KEY_ROTATION_NOTICE_SECONDS * 1000),
      retiredAt: null,
    });
    await this.stored.insert(row);
    return { kid: row.kid, signsFrom: row.signsFrom! };
  }

  /** Every key, the newest first. */
  async list(): Promise<ListedKey[]> {
    const { ring, rows } = await this.read();
    const now = this.clock.now();
    const signing = ring.signingKey(now);
    return ring.all().map((key) => {
      const state: KeyState = key.retiredAt
        ? 'retired'
        : key === signing
          ? 'signing'
          : key.signsFrom && key.signsFrom.getTime() > now
            ? 'next'
            : 'verifying';
      return {
        kid: key.kid,
        source: key.source,
        state,
        created: rows.get(key.kid)?.created ?? null,
        signsFrom: key.signsFrom,
        retiredAt: key.retiredAt,
        retirableFrom: state === 'retired' ? null : ring.retirableAt(key.kid, this.tokenLifetimeSeconds(), now),
      };
    });
  }

  /**
   * Retires `kid`: from then on it neither signs nor verifies, on every instance within
   * KEY_REFRESH_SECONDS. Refused for the signing key, and, unless `force`, while tokens it signed may be
   * valid. Retiring a retired key answers as the first time.
   */
  async retire(kid: string, force: boolean): Promise<{ kid: string; retiredAt: Date }> {
    const { ring, rows } = await this.read();
    const key = ring.find(kid);
    if (!key) throw new UnknownSigningKeyError(kid);
    if (key.retiredAt) return { kid, retiredAt: key.retiredAt };
    const now = this.clock.now();
    const retirableFrom = ring.retirableAt(kid, this.tokenLifetimeSeconds(), now);
    if (!retirableFrom) {
      throw new KeyRetirementRefusedError(
        `The key ${kid} is the signing key: run keys:rotate first, then retire it once its tokens have expired.`,
      );
    }
    if (retirableFrom.getTime() > now && !force) {
      throw new KeyRetirementRefusedError(
        `Tokens the key ${kid} signed may be valid until ${retirableFrom.toISOString()}: retire it then, or now with --force (those tokens are refused).`,
      );
    }
    const retiredAt = new Date(wholeSecond(now));
    if (rows.has(kid)) {
      await this.stored.update({ kid, retiredAt: IsNull() }, { retiredAt });
    } else {
      // The configured key: its row records only its retirement; the private key stays where it is configured.
      await this.stored.insert(
        this.stored.create({
          kid,
          privateKey: null,
          publicKey: key.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
          created: retiredAt,
          signsFrom: null,
          retiredAt,
        }),
      );
    }
    return { kid, retiredAt };
  }

  /** How long after a key stopped signing a token it signed may still verify. */
  private tokenLifetimeSeconds(): number {
    return this.config.tokens.accessTokenTtl + CLOCK_LEEWAY_SECONDS + CLOCK_SPREAD_SECONDS;
  }

  private async read(): Promise<{ ring: KeyRing; rows: Map<string, SigningKeyEntity> }> {
    // The private keys too, only to tell a key of the database from a configured key's record (NULL).
    const rows = await this.stored.find({
      select: { kid: true, privateKey: true, publicKey: true, created: true, signsFrom: true, retiredAt: true },
    });
    const keys: RingKey[] = await Promise.all(rows.map(storedRingKey));
    const configured = readConfiguredKey({ environment: this.config.environment, ...this.config.tokens });
    if (configured) {
      const key = await configuredRingKey(configured);
      if (!rows.some((row) => row.kid === key.kid)) keys.push(key);
    }
    return { ring: new KeyRing(keys), rows: new Map(rows.map((row) => [row.kid, row])) };
  }
}

/** The database keeps instants to the second. */
function wholeSecond(ms: number): number {
  return Math.floor(ms / 1000) * 1000;
}
