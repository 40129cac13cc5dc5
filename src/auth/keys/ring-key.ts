import { calculateJwkThumbprint, exportJWK, type JWK } from 'jose';
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import type { ConfiguredKey } from './configured-key.js';
import type { RingKey } from './key-ring.js';
import type { SigningKeyEntity } from './signing-key.entity.js';

/** A key of the ring with its public half as a JWK (RFC 7517), as GET /oauth/jwks publishes it. */
export type PublishedKey = RingKey & { jwk: JWK };

/** The `kid` of a key: its public key's JWK thumbprint (RFC 7638). */
export async function keyIdOf(publicKey: KeyObject): Promise<string> {
  return calculateJwkThumbprint(await exportJWK(publicKey));
}

export async function configuredRingKey(key: ConfiguredKey): Promise<PublishedKey> {
  return withJwk({
    kid: await keyIdOf(key.publicKey),
    privateKey: key.privateKey,
    publicKey: key.publicKey,
    signsFrom: null,
    retiredAt: null,
    source: 'configured',
  });
}

/** A row of `oauth_signing_keys`; its private key only when it was read. */
export async function storedRingKey(row: SigningKeyEntity): Promise<PublishedKey> {
  return withJwk({
    kid: row.kid,
    privateKey: row.privateKey ? createPrivateKey(row.privateKey) : undefined,
    publicKey: createPublicKey(row.publicKey),
    signsFrom: row.signsFrom,
    retiredAt: row.retiredAt,
    source: row.privateKey === null ? 'configured' : 'database',
  });
}

async function withJwk(key: RingKey): Promise<PublishedKey> {
  const { kty, n, e } = await exportJWK(key.publicKey);
  return { ...key, jwk: { kty, n, e, kid: key.kid, alg: 'RS256', use: 'sig' } };
}
