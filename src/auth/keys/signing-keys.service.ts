import { type BeforeApplicationShutdown, Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { JWK } from 'jose';
import type { KeyObject } from 'node:crypto';
import type { Repository } from 'typeorm';
import { RoundLoop } from '../../common/process/round-loop.js';
import { CLOCK, type Clock } from '../../common/time/clock.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { generateKeyDirectoryPair, readConfiguredKey, SigningKeyError } from './configured-key.js';
import { KeyRing } from './key-ring.js';
import { configuredRingKey, type PublishedKey, storedRingKey } from './ring-key.js';
import { SigningKeyEntity } from './signing-key.entity.js';

/**
 * How often each instance reads the keys of the database again. A rotated key signs a minute after
 * `keys:rotate` (KEY_ROTATION_NOTICE_SECONDS), so every instance has read it, and verifies the tokens
 * it signs, before any instance signs with it: the instances switch together, by their clocks.
 */
export const KEY_REFRESH_SECONDS = 20;

/** How long after `keys:rotate` the new key signs: every instance reads the keys at least twice meanwhile. */
export const KEY_ROTATION_NOTICE_SECONDS = 60;

/**
 * The token signing keys (docs/interface.md#signing-keys): the configured key (OAUTH_PRIVATE_KEY or
 * the key directory) and the keys of the database, read at start-up and every KEY_REFRESH_SECONDS.
 * Loaded in `onModuleInit` so that a missing key in production surfaces as the one-line start-up
 * failure main.ts prints.
 */
@Injectable()
export class SigningKeysService implements OnModuleInit, OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('SigningKeys');
  private configured?: PublishedKey;
  /** Keys of the database already parsed, by kid: a row's keys never change, only when it retires. */
  private readonly parsed = new Map<string, PublishedKey>();
  private ring = new KeyRing<PublishedKey>([]);
  private readonly rounds = new RoundLoop(() => this.read(), {
    whileRunning: 'join',
    failed: (error) => this.logger.warn(`Could not read the signing keys: ${error instanceof Error ? error.message : String(error)}`),
  });

  constructor(
    @InjectRepository(SigningKeyEntity) private readonly stored: Repository<SigningKeyEntity>,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    const configured = readConfiguredKey({ environment: this.config.environment, ...this.config.tokens });
    if (configured) this.configured = await configuredRingKey(configured);
    await this.read();
    if (this.ring.signingKey(this.clock.now())?.privateKey) return;
    if (this.config.environment === 'production') {
      throw new SigningKeyError(
        'OAUTH_PRIVATE_KEY and OAUTH_PUBLIC_KEY must be set in production (PEM text or a file path), unless the database holds a signing key (keys:rotate); refusing to start without signing keys.',
      );
    }
    const generated = generateKeyDirectoryPair(this.config.tokens.keyDirectory);
    this.configured = await configuredRingKey(generated);
    if (generated.created) {
      this.logger.warn(
        `Generated a new signing key pair in ${generated.source} (kid ${this.configured.kid}), where there was none: back it up with the database; if it is lost, every token it signed stops verifying.`,
      );
    }
    await this.read();
  }

  onApplicationBootstrap(): void {
    this.rounds.start(KEY_REFRESH_SECONDS * 1000);
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.rounds.stop();
  }

  /** Reads the keys of the database again (or joins the reading in progress); a failure is logged and the keys stay as they were. */
  refresh(): Promise<void> {
    return this.rounds.run().catch(() => undefined);
  }

  /** The key tokens are signed with now. */
  signingKey(): { kid: string; privateKey: KeyObject } {
    const key = this.ring.signingKey(this.clock.now());
    if (!key?.privateKey) throw new SigningKeyError('No signing key is loaded');
    return { kid: key.kid, privateKey: key.privateKey };
  }

  /** The public key that verifies tokens of `kid`; undefined for an unknown or retired key. */
  verificationKey(kid: string | undefined): KeyObject | undefined {
    return this.ring.verificationKey(kid);
  }

  /** The JWK Set GET /oauth/jwks answers: every key not retired, the newest first. */
  keySet(): { keys: JWK[] } {
    return { keys: this.ring.published().map((key) => key.jwk) };
  }

  private async read(): Promise<void> {
    const rows = await this.stored.find({ select: { kid: true, privateKey: true, publicKey: true, signsFrom: true, retiredAt: true } });
    const keys: PublishedKey[] = [];
    for (const row of rows) {
      const known = this.parsed.get(row.kid);
      const key = known && known.retiredAt?.getTime() === row.retiredAt?.getTime() ? known : await storedRingKey(row);
      this.parsed.set(row.kid, key);
      keys.push(key);
    }
    // The configured key as the database knows it, if it does: a row of it records its retirement.
    if (this.configured && !keys.some((key) => key.kid === this.configured!.kid)) keys.push(this.configured);
    this.ring = new KeyRing(keys);
  }
}
