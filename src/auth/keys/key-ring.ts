import type { KeyObject } from 'node:crypto';

/** One signing key as the ring knows it: from the database, or the configured one. */
export interface RingKey {
  kid: string;
  /** Absent for a key whose private half this process does not hold (the configured key of another instance). */
  privateKey?: KeyObject;
  publicKey: KeyObject;
  /** When it becomes the signing key; null for the configured key, which signs until a key of the database does. */
  signsFrom: Date | null;
  retiredAt: Date | null;
  source: 'database' | 'configured';
}

/**
 * The signing keys at one reading of the database, and the rules over them
 * (docs/interface.md#signing-keys): the **signing key** is the key of the database that signs from the
 * latest instant not after now, else the configured key; every key not retired **verifies** (and is
 * published); a key **stopped signing** when the next key in signing order began to sign.
 */
export class KeyRing<K extends RingKey = RingKey> {
  /** Oldest first in signing order: the configured key, then by `signsFrom`. */
  private readonly keys: K[];

  constructor(keys: K[]) {
    this.keys = [...keys].sort((a, b) => order(a) - order(b) || a.kid.localeCompare(b.kid));
  }

  /**
   * The key that signs at `now`: the key of the database whose time to sign came last, else the
   * configured key. When no key's time has come (none is configured, and the first key of the database
   * was made less than a minute ago), the first key due signs early: no instance can be signing with
   * another.
   */
  signingKey(now: number): K | undefined {
    const usable = this.keys.filter((key) => !key.retiredAt);
    return usable.filter((key) => key.signsFrom === null || key.signsFrom.getTime() <= now).at(-1) ?? usable[0];
  }

  /** The public key of `kid` while it is not retired. */
  verificationKey(kid: string | undefined): KeyObject | undefined {
    const key = this.keys.find((candidate) => candidate.kid === kid);
    return key && !key.retiredAt ? key.publicKey : undefined;
  }

  /** Every key not retired, the newest first: what GET /oauth/jwks publishes. */
  published(): K[] {
    return this.keys.filter((key) => !key.retiredAt).reverse();
  }

  /** Every key, retired ones included, the newest first. */
  all(): K[] {
    return [...this.keys].reverse();
  }

  find(kid: string): K | undefined {
    return this.keys.find((key) => key.kid === kid);
  }

  /**
   * When `kid` stopped signing: when the next key that ever signed began to (one retired before its
   * time came never did); null while it signs or has yet to.
   */
  stoppedSigningAt(kid: string, now: number): Date | null {
    const index = this.keys.findIndex((key) => key.kid === kid);
    const next = this.keys
      .slice(index + 1)
      .find((key) => key.signsFrom !== null && key.signsFrom.getTime() <= now && (!key.retiredAt || key.retiredAt > key.signsFrom));
    return index < 0 || !next ? null : next.signsFrom;
  }

  /**
   * From when retiring `kid` refuses no token still valid: once every token it may have signed has
   * expired, `tokenLifetimeSeconds` after it stopped signing; at once for a key whose time to sign has
   * not come. Null while it signs, since tokens it signs are still being handed out.
   */
  retirableAt(kid: string, tokenLifetimeSeconds: number, now: number): Date | null {
    const key = this.find(kid);
    if (key !== this.signingKey(now) && key?.signsFrom && key.signsFrom.getTime() > now) return new Date(now);
    const stopped = this.stoppedSigningAt(kid, now);
    return stopped && new Date(stopped.getTime() + tokenLifetimeSeconds * 1000);
  }
}

function order(key: RingKey): number {
  return key.signsFrom?.getTime() ?? -Infinity;
}
