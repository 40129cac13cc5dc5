import { generateKeyPairSync } from 'node:crypto';
import { compactVerify, decodeProtectedHeader, SignJWT } from 'jose';
import { signRs256Jwt, type AccessTokenPayload } from './rs256-jwt.js';

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const payload: AccessTokenPayload = Object.freeze({
  scope: 'authenticated',
  iss: 'https://traps.example.org',
  aud: 'client-a',
  sub: '42',
  jti: 'a'.repeat(64),
  iat: 1_800_000_000,
  nbf: 1_800_000_000,
  exp: 1_800_000_300,
});

describe(signRs256Jwt.name, () => {
  it('writes the token jose writes for the same header and claims, byte for byte (RS256 signatures are deterministic)', async () => {
    const byJose = await new SignJWT({ scope: payload.scope })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: 'key-1' })
      .setIssuer(payload.iss)
      .setAudience(payload.aud)
      .setSubject(payload.sub)
      .setJti(payload.jti)
      .setIssuedAt(payload.iat)
      .setNotBefore(payload.nbf)
      .setExpirationTime(payload.exp)
      .sign(privateKey);

    await expect(signRs256Jwt(payload, 'key-1', privateKey)).resolves.toBe(byJose);
  });

  it('signs with the key given and names it, whichever key signed before', async () => {
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
    await signRs256Jwt(payload, 'key-1', privateKey);

    const token = await signRs256Jwt(payload, 'key-2', other.privateKey);

    expect(decodeProtectedHeader(token)).toEqual({ alg: 'RS256', typ: 'JWT', kid: 'key-2' });
    await expect(compactVerify(token, other.publicKey)).resolves.toBeDefined();
    await expect(compactVerify(token, publicKey)).rejects.toThrow('signature verification failed');
  });
});
