import { createPrivateKey, createSecretKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { decodeJwt, decodeProtectedHeader, type JWTPayload, SignJWT, UnsecuredJWT } from 'jose';
import request from 'supertest';
import { AccessTokenEntity } from '../src/auth/tokens/access-token.entity.js';
import { UsersService } from '../src/auth/users/users.service.js';
import { UserEntity } from '../src/auth/users/user.entity.js';
import { FORBIDDEN_CREATE } from './fixtures/oauth-errors.stub.js';
import {
  AuthProbeController,
  createClient,
  createUser,
  obtainTokens,
  PROBE_ANY,
  PROBE_INGEST,
  type TestUser,
} from './utils/auth-fixtures.js';
import { createTestApp, TestApp } from './utils/test-app.js';

/** The key the application signs with in the test run (see test/setup/global-setup.ts). */
const testPrivateKey = () => createPrivateKey(readFileSync(process.env.OAUTH_PRIVATE_KEY!, 'utf8'));
const now = () => Math.floor(Date.now() / 1000);

/** The challenges of RFC 6750 §3, one per reason a token is refused. */
const CHALLENGE = {
  none: 'Bearer realm="sensor-records"',
  malformed:
    'Bearer realm="sensor-records", error="invalid_request", error_description="The Authorization header must be Bearer and one token"',
  invalid: 'Bearer realm="sensor-records", error="invalid_token", error_description="The access token is not valid"',
  expired: 'Bearer realm="sensor-records", error="invalid_token", error_description="The access token expired"',
  revoked: 'Bearer realm="sensor-records", error="invalid_token", error_description="The access token was revoked"',
  blocked: 'Bearer realm="sensor-records", error="invalid_token", error_description="The user of the access token is blocked"',
  permission: 'Bearer realm="sensor-records", error="insufficient_scope", error_description="The user may not create sensor records"',
};

/** Re-signs a real token's claims, changed as a test needs, under its own kid, so that only the change can be at fault. */
function resign(token: string, change: (claims: JWTPayload) => JWTPayload, key: KeyObject = testPrivateKey(), alg = 'RS256') {
  const claims = change({ ...decodeJwt(token) });
  return new SignJWT(claims).setProtectedHeader({ alg, typ: 'JWT', kid: decodeProtectedHeader(token).kid }).sign(key);
}

describe('Bearer guard', () => {
  let testApp: TestApp;
  let user: TestUser;
  let accessToken: string;

  const get = (authorization?: string, path = PROBE_INGEST) => {
    const call = request(testApp.app.getHttpServer()).get(path);
    return authorization === undefined ? call : call.set('Authorization', authorization);
  };
  /** The body stays the interface's one 403; RFC 6750 §3's challenge beside it says why. */
  const expectRefused = async (authorization: string | undefined, challenge: string) => {
    const response = await get(authorization).expect(403);
    expect(response.body).toEqual(FORBIDDEN_CREATE);
    expect(response.headers['www-authenticate']).toBe(challenge);
  };

  beforeAll(async () => {
    testApp = await createTestApp({ controllers: [AuthProbeController] });
  });

  beforeEach(async () => {
    await testApp.reset();
    const client = await createClient(testApp.app);
    user = await createUser(testApp.app);
    accessToken = (await obtainTokens(testApp.app, client, user)).access_token;
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('lets a valid token through and exposes its user', async () => {
    const response = await get(`Bearer ${accessToken}`).expect(200);

    expect(response.body).toMatchObject({ uid: user.uid, uuid: user.uuid, name: user.username, mayCreateSensorRecords: true });
  });

  it.each(['bearer', 'BEARER', 'BeArEr'])('reads the scheme name %s without regard to case', async (scheme) => {
    await get(`${scheme} ${accessToken}`).expect(200);
  });

  it('reads the token after several spaces and before trailing ones (RFC 6750 §2.1: "Bearer" 1*SP b64token)', async () => {
    await get(`bearer    ${accessToken}   `).expect(200);
  });

  it('accepts a token re-signed with unchanged claims (the control for the cases below)', async () => {
    await get(`Bearer ${await resign(accessToken, (claims) => claims)}`).expect(200);
  });

  describe('answers 403 with the create message, and a challenge saying why', () => {
    it('without an Authorization header', () => expectRefused(undefined, CHALLENGE.none));
    it('for another scheme', () => expectRefused(`Basic ${accessToken}`, CHALLENGE.none));
    it('for the scheme alone', () => expectRefused('Bearer', CHALLENGE.malformed));
    it('for a token that is not a JWT', () => expectRefused('Bearer not.a.jwt', CHALLENGE.invalid));
    it('for a token in the query string only', async () => {
      const response = await request(testApp.app.getHttpServer()).get(`${PROBE_INGEST}?access_token=${accessToken}`).expect(403);
      expect(response.body).toEqual(FORBIDDEN_CREATE);
      expect(response.headers['www-authenticate']).toBe(CHALLENGE.none);
    });

    it('for a token signed with another key', async () => {
      const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      await expectRefused(`Bearer ${await resign(accessToken, (claims) => claims, privateKey)}`, CHALLENGE.invalid);
    });

    it('for a tampered payload', async () => {
      const [header, , signature] = accessToken.split('.');
      const payload = Buffer.from(JSON.stringify({ ...decodeJwt(accessToken), sub: '999' })).toString('base64url');
      await expectRefused(`Bearer ${header}.${payload}.${signature}`, CHALLENGE.invalid);
    });

    it('for alg "none"', async () => {
      await expectRefused(`Bearer ${new UnsecuredJWT(decodeJwt(accessToken)).encode()}`, CHALLENGE.invalid);
    });

    it('for HS256 keyed with the public key', async () => {
      const publicPem = readFileSync(process.env.OAUTH_PUBLIC_KEY!);
      await expectRefused(
        `Bearer ${await resign(accessToken, (claims) => claims, createSecretKey(publicPem), 'HS256')}`,
        CHALLENGE.invalid,
      );
    });

    it('for PS256, an RSA algorithm other than RS256', async () => {
      await expectRefused(`Bearer ${await resign(accessToken, (claims) => claims, testPrivateKey(), 'PS256')}`, CHALLENGE.invalid);
    });

    it('for an expired token (beyond the 1 s leeway)', async () => {
      await expectRefused(`Bearer ${await resign(accessToken, (claims) => ({ ...claims, exp: now() - 2 }))}`, CHALLENGE.expired);
    });

    it('for a token not valid yet', async () => {
      await expectRefused(`Bearer ${await resign(accessToken, (claims) => ({ ...claims, nbf: now() + 60 }))}`, CHALLENGE.invalid);
    });

    it('for a token issued in the future', async () => {
      await expectRefused(`Bearer ${await resign(accessToken, (claims) => ({ ...claims, iat: now() + 60 }))}`, CHALLENGE.invalid);
    });

    it('for another issuer', async () => {
      await expectRefused(
        `Bearer ${await resign(accessToken, (claims) => ({ ...claims, iss: 'https://elsewhere.example' }))}`,
        CHALLENGE.invalid,
      );
    });

    it.each(['iss', 'aud', 'sub', 'jti', 'iat', 'nbf', 'exp', 'scope'])('for a token without %s', async (claim) => {
      await expectRefused(
        `Bearer ${await resign(accessToken, (claims) => Object.fromEntries(Object.entries(claims).filter(([name]) => name !== claim)))}`,
        CHALLENGE.invalid,
      );
    });

    it('for a token naming another client than it was issued to', async () => {
      const other = await createClient(testApp.app);
      await expectRefused(`Bearer ${await resign(accessToken, (claims) => ({ ...claims, aud: other.clientId }))}`, CHALLENGE.invalid);
    });

    it('for a validly signed token this service holds no record of (its client was deleted)', async () => {
      await expectRefused(`Bearer ${await resign(accessToken, (claims) => ({ ...claims, jti: 'f'.repeat(64) }))}`, CHALLENGE.revoked);
    });

    it('for a user that no longer exists', async () => {
      await testApp.dataSource.getRepository(UserEntity).delete({ uid: user.uid });
      // Its tokens' rows went with it (the foreign key cascades).
      await expectRefused(`Bearer ${accessToken}`, CHALLENGE.revoked);
    });

    it('for a blocked user', async () => {
      await testApp.app.get(UsersService).block(user.username);
      await expectRefused(`Bearer ${accessToken}`, CHALLENGE.blocked);
    });

    it('for a token whose family was revoked', async () => {
      await testApp.dataSource.getRepository(AccessTokenEntity).update({ uid: user.uid }, { revoked: true });
      await expectRefused(`Bearer ${accessToken}`, CHALLENGE.revoked);
    });

    it('for a user without the ingest permission where ingest is required', async () => {
      const client = await createClient(testApp.app);
      const reader = await createUser(testApp.app, { ingest: false });
      const token = (await obtainTokens(testApp.app, client, reader)).access_token;

      await expectRefused(`Bearer ${token}`, CHALLENGE.permission);
      await get(`Bearer ${token}`, PROBE_ANY).expect(200);
    });
  });

  it("answers a route's own denied message when it sets one", async () => {
    const response = await get(undefined, PROBE_ANY).expect(403);

    expect(response.body).toEqual({ message: 'You are not authorized to view this record.' });
  });
});
