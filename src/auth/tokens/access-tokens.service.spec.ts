import { jest } from '@jest/globals';
import { createPrivateKey, createPublicKey, createSecretKey, generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { decodeJwt, decodeProtectedHeader, type JWTPayload, SignJWT, UnsecuredJWT } from 'jose';
import type { EntityManager } from 'typeorm';
import type { Statement } from '../../database/send-together.js';
import type { AppConfig } from '../../config/app-config.js';
import { AccessTokensService } from './access-tokens.service.js';
import type { SigningKeysService } from '../keys/signing-keys.service.js';

const privateKey = createPrivateKey(readFileSync(process.env.OAUTH_PRIVATE_KEY!, 'utf8'));
const publicKey = createPublicKey(privateKey);
/** One key, `test-key`, that signs and verifies; any other kid is unknown (or retired). */
const keys = {
  signingKey: () => ({ kid: 'test-key', privateKey }),
  verificationKey: (kid: string | undefined) => (kid === 'test-key' ? publicKey : undefined),
} as unknown as SigningKeysService;
const config = { baseUrl: 'https://traps.example.org', tokens: { accessTokenTtl: 300 } } as AppConfig;
const grant = Object.freeze({ uid: 42, clientId: 'client-a', familyId: 'family-1' });
const NOW = 1_800_000_000;
const at = (seconds: number) => new Date(seconds * 1000);

/** A manager whose driver stores every value as it is given, recording the statements sent. */
const recordingManager = (query: jest.Mock<(sql: string, parameters: unknown[]) => Promise<unknown>>) =>
  ({
    query,
    connection: {
      getMetadata: () => ({ findColumnWithPropertyName: (propertyName: string) => ({ propertyName }) }),
      driver: { preparePersistentValue: (value: unknown) => value },
    },
  }) as unknown as EntityManager;

describe(AccessTokensService.name, () => {
  let sut: AccessTokensService;
  let query: jest.Mock<(sql: string, parameters: unknown[]) => Promise<unknown>>;
  let token: string;
  let record: Statement;

  const sign = (claims: JWTPayload, alg = 'RS256', key: Parameters<SignJWT['sign']>[0] = privateKey, kid: string | null = 'test-key') =>
    new SignJWT(claims).setProtectedHeader({ alg, ...(kid === null ? {} : { kid }) }).sign(key);

  beforeEach(async () => {
    sut = new AccessTokensService(config, keys);
    query = jest.fn<(sql: string, parameters: unknown[]) => Promise<unknown>>().mockResolvedValue(undefined);
    ({ token, record } = await sut.issue(recordingManager(query), grant, NOW));
  });

  describe('issue', () => {
    it('signs RS256 with the decided claims', () => {
      expect(decodeProtectedHeader(token)).toEqual({ alg: 'RS256', typ: 'JWT', kid: 'test-key' });
      expect(decodeJwt(token)).toEqual({
        scope: 'authenticated',
        iss: 'https://traps.example.org',
        aud: 'client-a',
        sub: '42',
        jti: expect.stringMatching(/^[0-9a-f]{64}$/),
        iat: NOW,
        nbf: NOW,
        exp: NOW + 300,
      });
    });

    it('gives the statement that records the token in its family, so the family can revoke it, and sends nothing itself', () => {
      expect(record).toEqual({
        sql: 'INSERT INTO oauth_access_tokens (jti, family_id, client_id, uid, expires_at, revoked, created) VALUES (?, ?, ?, ?, ?, 0, ?)',
        parameters: [decodeJwt(token).jti, 'family-1', 'client-a', 42, at(NOW + 300), at(NOW)],
      });
      expect(query).not.toHaveBeenCalled();
    });
  });

  describe('verify', () => {
    it('returns the claims the guard needs', async () => {
      await expect(sut.verify(token, at(NOW + 10))).resolves.toEqual({
        jti: decodeJwt(token).jti,
        uid: 42,
        clientId: 'client-a',
        kid: 'test-key',
      });
    });

    it('allows one second of clock leeway and no more', async () => {
      // `exp` is the first second the token is no longer good; the leeway adds one more.
      await expect(sut.verify(token, at(NOW + 300))).resolves.toHaveProperty('jti');
      await expect(sut.verify(token, at(NOW + 301))).resolves.toEqual({ refused: 'expired' });
      await expect(sut.verify(token, at(NOW - 1))).resolves.toHaveProperty('jti');
      await expect(sut.verify(token, at(NOW - 2))).resolves.toEqual({ refused: 'invalid' });
    });

    it.each([
      ['another issuer', { iss: 'https://elsewhere.example' }],
      ['a non-numeric subject', { sub: 'admin' }],
      ['an audience list', { aud: ['client-a', 'client-b'] }],
      ['no scope', { scope: undefined }],
      ['an issue time in the future', { iat: NOW + 60 }],
    ])('refuses a token with %s', async (_case, change) => {
      const claims = { ...decodeJwt(token), ...change };

      await expect(sut.verify(await sign(claims), at(NOW + 10))).resolves.toEqual({ refused: 'invalid' });
    });

    it('refuses other algorithms, "none" and other keys', async () => {
      const claims = decodeJwt(token);
      const otherKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;

      await expect(sut.verify(new UnsecuredJWT(claims).encode(), at(NOW + 10))).resolves.toEqual({ refused: 'invalid' });
      await expect(sut.verify(await sign(claims, 'HS256', createSecretKey(Buffer.alloc(32, 1))), at(NOW + 10))).resolves.toEqual({
        refused: 'invalid',
      });
      await expect(sut.verify(await sign(claims, 'PS256'), at(NOW + 10))).resolves.toEqual({ refused: 'invalid' });
      await expect(sut.verify(await sign(claims, 'RS256', otherKey), at(NOW + 10))).resolves.toEqual({ refused: 'invalid' });
      await expect(sut.verify('garbage', at(NOW + 10))).resolves.toEqual({ refused: 'invalid' });
    });

    it('says expired only of a genuine token: an expired one under another key is not valid', async () => {
      const claims = decodeJwt(token);
      const otherKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;

      await expect(sut.verify(await sign(claims, 'RS256', otherKey), at(NOW + 400))).resolves.toEqual({ refused: 'invalid' });
      await expect(sut.verify(token, at(NOW + 400))).resolves.toEqual({ refused: 'expired' });
    });

    it('refuses a token of a key the ring does not verify with (unknown or retired), or naming none', async () => {
      const claims = decodeJwt(token);

      await expect(sut.verify(await sign(claims), at(NOW + 10))).resolves.toMatchObject({ kid: 'test-key' });
      await expect(sut.verify(await sign(claims, 'RS256', privateKey, 'retired-key'), at(NOW + 10))).resolves.toEqual({
        refused: 'invalid',
      });
      await expect(sut.verify(await sign(claims, 'RS256', privateKey, null), at(NOW + 10))).resolves.toEqual({ refused: 'invalid' });
    });
  });
});
