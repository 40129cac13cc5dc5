import { createHash } from 'node:crypto';
import request from 'supertest';
import { UsersService } from '../src/auth/users/users.service.js';
import { AccessTokenEntity } from '../src/auth/tokens/access-token.entity.js';
import { RefreshTokenEntity } from '../src/auth/tokens/refresh-token.entity.js';
import { FORBIDDEN_CREATE, oauthErrorStub } from './fixtures/oauth-errors.stub.js';
import {
  AuthProbeController,
  createClient,
  createUser,
  obtainTokens,
  PROBE_INGEST,
  TOKEN_PATH,
  type TestClient,
  type TestUser,
  type TokenPair,
} from './utils/auth-fixtures.js';
import { createTestApp, TestApp } from './utils/test-app.js';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

describe('Token endpoint: refresh grant', () => {
  let testApp: TestApp;
  let client: TestClient;
  let user: TestUser;
  let pair: TokenPair;

  const refresh = (refreshToken: string, withClient: TestClient = client) =>
    request(testApp.app.getHttpServer()).post(TOKEN_PATH).type('form').send({
      grant_type: 'refresh_token',
      client_id: withClient.clientId,
      client_secret: withClient.clientSecret,
      refresh_token: refreshToken,
    });
  const probe = (accessToken: string) =>
    request(testApp.app.getHttpServer()).get(PROBE_INGEST).set('Authorization', `Bearer ${accessToken}`);
  const refreshRow = (token: string) => testApp.dataSource.getRepository(RefreshTokenEntity).findOneByOrFail({ tokenHash: sha256(token) });

  beforeAll(async () => {
    testApp = await createTestApp({ controllers: [AuthProbeController] });
  });

  beforeEach(async () => {
    await testApp.reset();
    client = await createClient(testApp.app);
    user = await createUser(testApp.app);
    pair = await obtainTokens(testApp.app, client, user);
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('returns a new pair, revokes the used refresh token and keeps the family', async () => {
    const response = await refresh(pair.refresh_token).expect(200);

    expect(Object.keys(response.body)).toEqual(['token_type', 'expires_in', 'access_token', 'refresh_token']);
    expect(response.body).toMatchObject({ token_type: 'Bearer', expires_in: 300 });
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['pragma']).toBe('no-cache');
    expect(response.body.refresh_token).not.toBe(pair.refresh_token);
    expect(response.body.access_token).not.toBe(pair.access_token);
    const used = await refreshRow(pair.refresh_token);
    const fresh = await refreshRow(response.body.refresh_token);
    expect(used).toMatchObject({ revoked: true, revokedAt: expect.any(Date) });
    expect(fresh).toMatchObject({ revoked: false, familyId: used.familyId, uid: user.uid, clientId: client.clientId });
    await probe(response.body.access_token).expect(200);
  });

  it('accepts the client credentials as HTTP Basic', async () => {
    const response = await request(testApp.app.getHttpServer())
      .post(TOKEN_PATH)
      .auth(client.clientId, client.clientSecret)
      .type('form')
      .send({ grant_type: 'refresh_token', refresh_token: pair.refresh_token })
      .expect(200);

    expect(response.body.token_type).toBe('Bearer');
  });

  it('refuses a refresh asking for a scope other than authenticated, and leaves the refresh token usable', async () => {
    const response = await request(testApp.app.getHttpServer())
      .post(TOKEN_PATH)
      .type('form')
      .send({
        grant_type: 'refresh_token',
        client_id: client.clientId,
        client_secret: client.clientSecret,
        refresh_token: pair.refresh_token,
        scope: 'admin',
      })
      .expect(400);

    expect(response.body).toEqual(oauthErrorStub.invalidScope('admin'));
    expect(await refreshRow(pair.refresh_token)).toMatchObject({ revoked: false });
    await refresh(pair.refresh_token).expect(200);
  });

  it('answers a missing refresh_token with invalid_request naming it', async () => {
    const response = await refresh('').expect(400);

    expect(response.body).toEqual(oauthErrorStub.invalidRequest('refresh_token'));
  });

  it('refuses an unknown refresh token', async () => {
    const response = await refresh('not-a-token-we-issued').expect(400);

    expect(response.body).toEqual(oauthErrorStub.invalidRefreshToken('Cannot decrypt the refresh token'));
  });

  it('refuses a refresh token presented by another client, and leaves it usable', async () => {
    const other = await createClient(testApp.app);

    const response = await refresh(pair.refresh_token, other).expect(400);

    expect(response.body).toEqual(oauthErrorStub.invalidRefreshToken('Token is not linked to client'));
    expect((await refreshRow(pair.refresh_token)).revoked).toBe(false);
  });

  it('refuses an expired refresh token', async () => {
    await testApp.dataSource
      .getRepository(RefreshTokenEntity)
      .update({ tokenHash: sha256(pair.refresh_token) }, { expiresAt: new Date(Date.now() - 1000) });

    const response = await refresh(pair.refresh_token).expect(400);

    expect(response.body).toEqual(oauthErrorStub.invalidRefreshToken('Token has expired'));
  });

  it('refuses a refresh for a user blocked since the grant', async () => {
    await testApp.app.get(UsersService).block(user.username);

    const response = await refresh(pair.refresh_token).expect(400);

    // No user credentials were sent: the answer blames the token, not a password.
    expect(response.body).toEqual(oauthErrorStub.invalidRefreshToken('The user of the refresh token is blocked'));
  });

  it('treats a used refresh token coming back as theft: the whole family is revoked', async () => {
    const second = (await refresh(pair.refresh_token).expect(200)).body as TokenPair;
    const third = (await refresh(second.refresh_token).expect(200)).body as TokenPair;
    const unrelated = await obtainTokens(testApp.app, client, user);

    const response = await refresh(pair.refresh_token).expect(400);

    expect(response.body).toEqual(oauthErrorStub.invalidRefreshToken('Token has been revoked'));
    const family = (await refreshRow(pair.refresh_token)).familyId;
    const refreshTokens = await testApp.dataSource.getRepository(RefreshTokenEntity).findBy({ familyId: family });
    const accessTokens = await testApp.dataSource.getRepository(AccessTokenEntity).findBy({ familyId: family });
    expect(refreshTokens).toHaveLength(3);
    expect(refreshTokens.every((row) => row.revoked)).toBe(true);
    expect(accessTokens).toHaveLength(3);
    expect(accessTokens.every((row) => row.revoked)).toBe(true);
    expect((await refresh(third.refresh_token).expect(400)).body).toEqual(oauthErrorStub.invalidRefreshToken('Token has been revoked'));
    expect((await probe(third.access_token).expect(403)).body).toEqual(FORBIDDEN_CREATE);
    await probe(unrelated.access_token).expect(200);
    await refresh(unrelated.refresh_token).expect(200);
  });
});
