import { createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { KeyRing, type RingKey } from './key-ring.js';

const T = Date.UTC(2026, 10, 26, 12, 0, 0);
const at = (seconds: number) => new Date(T + seconds * 1000);
const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const publicKey = createPublicKey(privateKey);

function key(kid: string, signsFrom: number | null, retiredAt: number | null = null, source: RingKey['source'] = 'database'): RingKey {
  return {
    kid,
    privateKey,
    publicKey,
    signsFrom: signsFrom === null ? null : at(signsFrom),
    retiredAt: retiredAt === null ? null : at(retiredAt),
    source,
  };
}

const kidOf = (found: RingKey | undefined) => found?.kid;

describe(KeyRing.name, () => {
  describe('signingKey', () => {
    it('is the configured key until a key of the database is due, then the key due last', () => {
      const sut = new KeyRing([key('second', 120), key('configured', null, null, 'configured'), key('first', 60)]);

      expect(kidOf(sut.signingKey(T + 59_999))).toBe('configured');
      expect(kidOf(sut.signingKey(T + 60_000))).toBe('first');
      expect(kidOf(sut.signingKey(T + 119_999))).toBe('first');
      expect(kidOf(sut.signingKey(T + 120_000))).toBe('second');
    });

    it('passes over a retired key', () => {
      const sut = new KeyRing([key('configured', null, null, 'configured'), key('first', 60, 90)]);

      expect(kidOf(sut.signingKey(T + 100_000))).toBe('configured');
    });

    it('is the first key due when no key is due yet and none is configured: nothing else could sign', () => {
      const sut = new KeyRing([key('later', 120), key('sooner', 60)]);

      expect(kidOf(sut.signingKey(T))).toBe('sooner');
    });
  });

  it('verifies with every key not retired, whether it signs yet or no longer, and with no other', () => {
    const sut = new KeyRing([key('configured', null, null, 'configured'), key('retired', 10, 500), key('next', 600)]);

    const verifies = (kid: string | undefined): KeyObject | undefined => sut.verificationKey(kid);
    expect([verifies('configured'), verifies('next')]).toEqual([publicKey, publicKey]);
    expect([verifies('retired'), verifies('unknown'), verifies(undefined)]).toEqual([undefined, undefined, undefined]);
    expect(sut.published().map((published) => published.kid)).toEqual(['next', 'configured']);
  });

  describe('retirableAt', () => {
    const LIFETIME = 302;

    it('is null while the key signs', () => {
      const sut = new KeyRing([key('configured', null, null, 'configured'), key('next', 60)]);

      expect(sut.retirableAt('configured', LIFETIME, T)).toBeNull();
      expect(sut.retirableAt('next', LIFETIME, T + 60_000)).toBeNull();
    });

    it('is a token lifetime after the next key began to sign', () => {
      const sut = new KeyRing([key('configured', null, null, 'configured'), key('next', 60)]);

      expect(sut.retirableAt('configured', LIFETIME, T + 60_000)).toEqual(at(60 + LIFETIME));
    });

    it('is now for a key whose time to sign has not come, unless it signs early for want of another', () => {
      expect(new KeyRing([key('configured', null, null, 'configured'), key('next', 60)]).retirableAt('next', LIFETIME, T)).toEqual(at(0));
      expect(new KeyRing([key('only', 60)]).retirableAt('only', LIFETIME, T)).toBeNull();
    });

    it('does not count a key retired before it ever signed as having taken over', () => {
      const sut = new KeyRing([key('configured', null, null, 'configured'), key('withdrawn', 60, 30), key('next', 120)]);

      expect(sut.retirableAt('configured', LIFETIME, T + 200_000)).toEqual(at(120 + LIFETIME));
    });
  });
});
