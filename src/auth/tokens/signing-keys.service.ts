import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { calculateJwkThumbprint, exportJWK } from 'jose';
import type { KeyObject } from 'node:crypto';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { loadSigningKeys, type SigningKeys } from './signing-keys.js';

/**
 * Holds the token signing keys. Loaded in `onModuleInit` rather than the constructor so that a
 * missing key in production surfaces as the one-line start-up failure main.ts prints.
 */
@Injectable()
export class SigningKeysService implements OnModuleInit {
  private keys?: SigningKeys & { keyId: string };

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  async onModuleInit(): Promise<void> {
    const keys = loadSigningKeys({ environment: this.config.environment, ...this.config.tokens });
    this.keys = { ...keys, keyId: await calculateJwkThumbprint(await exportJWK(keys.publicKey)) };
  }

  get privateKey(): KeyObject {
    return this.loaded().privateKey;
  }

  get publicKey(): KeyObject {
    return this.loaded().publicKey;
  }

  get keyId(): string {
    return this.loaded().keyId;
  }

  private loaded(): SigningKeys & { keyId: string } {
    if (!this.keys) throw new Error('Signing keys are not loaded yet');
    return this.keys;
  }
}
