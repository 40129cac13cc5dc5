import { jest } from '@jest/globals';
import { createHash } from 'node:crypto';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import request from 'supertest';
import { PasswordHasher } from '../src/auth/users/password-hasher.js';
import { UserEntity } from '../src/auth/users/user.entity.js';
import { UsersService } from '../src/auth/users/users.service.js';
import { AccessTokenEntity } from '../src/auth/tokens/access-token.entity.js';
import { RefreshTokenEntity } from '../src/auth/tokens/refresh-token.entity.js';
import { LoginFailureEntity } from '../src/auth/token-endpoint/login-failure.entity.js';
import { oauthErrorStub } from './fixtures/oauth-errors.stub.js';
import { createClient, createUser, TOKEN_PATH, type TestClient, type TestUser } from './utils/auth-fixtures.js';
import { createTestApp, TestApp } from './utils/test-app.js';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

describe('Token endpoint: password grant and errors', () => {
  let testApp: TestApp;
  let client: TestClient;
  let user: TestUser;

  const post = () => request(testApp.app.getHttpServer()).post(TOKEN_PATH);
  const passwordForm = (overrides: Record<string, string | undefined> = {}) =>
    Object.fromEntries(
      Object.entries({
        grant_type: 'password',
        client_id: client.clientId,
        client_secret: client.clientSecret,
        username: user.username,
        password: user.password,
        ...overrides,
      }).filter(([, value]) => value !== undefined),
    );

  beforeAll(async () => {
    testApp = await createTestApp();
  });

  beforeEach(async () => {
    await testApp.reset();
    client = await createClient(testApp.app);
    user = await createUser(testApp.app, { username: 'trap-gateway' });
  });

  afterEach(() => {
    jest.restoreAllMocks();
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('answers a password grant with a Bearer pair, members in order, not cacheable', async () => {
    const response = await post().type('form').send(passwordForm()).expect(200);

    expect(Object.keys(response.body)).toEqual(['token_type', 'expires_in', 'access_token', 'refresh_token']);
    expect(response.body).toMatchObject({ token_type: 'Bearer', expires_in: 300 });
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['pragma']).toBe('no-cache');
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers['content-length']).toBe(String(Buffer.byteLength(response.text)));
    // A validator for the answer to a POST would never be used.
    expect(response.headers.etag).toBeUndefined();
  });

  it('takes a password set before the password rule, which the rule would refuse today', async () => {
    // As a user created before the rule holds it: only its hash is stored, and the rule is checked when a password is set.
    await testApp.dataSource.getRepository(UserEntity).update({ uid: user.uid }, { pass: await new PasswordHasher().hash('short') });

    const response = await post()
      .type('form')
      .send(passwordForm({ password: 'short' }))
      .expect(200);

    expect(response.body).toMatchObject({ token_type: 'Bearer', access_token: expect.any(String) });
    await post().type('form').send(passwordForm()).expect(400, oauthErrorStub.invalidCredentials);
  });

  it('signs an RS256 JWT with the decided claims and records it', async () => {
    const { body } = await post().type('form').send(passwordForm()).expect(200);

    const claims = decodeJwt(body.access_token);
    expect(decodeProtectedHeader(body.access_token).alg).toBe('RS256');
    expect(Object.keys(claims).sort()).toEqual(['aud', 'exp', 'iat', 'iss', 'jti', 'nbf', 'scope', 'sub']);
    expect(claims).toMatchObject({ iss: 'http://localhost:3000', aud: client.clientId, sub: String(user.uid) });
    expect(claims.exp! - claims.iat!).toBe(300);
    expect(claims.nbf).toBe(claims.iat);
    const accessRow = await testApp.dataSource.getRepository(AccessTokenEntity).findOneByOrFail({ jti: claims.jti });
    expect(accessRow).toMatchObject({ uid: user.uid, clientId: client.clientId, revoked: false });
    expect(accessRow.expiresAt.getTime()).toBe(claims.exp! * 1000);
  });

  it("stores the refresh token only as its SHA-256 digest, in the grant's family", async () => {
    const { body } = await post().type('form').send(passwordForm()).expect(200);

    const rows = await testApp.dataSource.getRepository(RefreshTokenEntity).find();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ tokenHash: sha256(body.refresh_token), uid: user.uid, clientId: client.clientId, revoked: false });
    expect(JSON.stringify(rows)).not.toContain(body.refresh_token);
    const accessRow = await testApp.dataSource.getRepository(AccessTokenEntity).findOneByOrFail({ uid: user.uid });
    const [refreshRow] = rows;
    expect(accessRow.familyId).toBe(refreshRow?.familyId);
    const lifetime = refreshRow!.expiresAt.getTime() - refreshRow!.created.getTime();
    expect(lifetime).toBe(1209600 * 1000);
  });

  it('accepts the client credentials as HTTP Basic', async () => {
    const response = await post()
      .auth(client.clientId, client.clientSecret)
      .type('form')
      .send(passwordForm({ client_id: undefined, client_secret: undefined }))
      .expect(200);

    expect(response.body.token_type).toBe('Bearer');
  });

  describe('HTTP Basic credentials form-encoded first (RFC 6749 §2.3.1)', () => {
    const formEncode = (value: string) =>
      encodeURIComponent(value).replace(/[-_.!~*'()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

    it("accepts an id and secret form-encoded before Basic encoding (a UUID's `-` as `%2D`, a secret's `+/=:` encoded)", async () => {
      const encoded = await createClient(testApp.app, { secret: 'a+b/c=d:e f' });

      const response = await post()
        .auth(formEncode(encoded.clientId), formEncode(encoded.clientSecret).replace(/%20/g, '+'))
        .type('form')
        .send(passwordForm({ client_id: undefined, client_secret: undefined }));

      expect(response.status).toBe(200);
    });

    it('accepts the same credentials sent as they are (a `+` then is a plus)', async () => {
      const plain = await createClient(testApp.app, { secret: 'a+b/c=d%2B' });

      await post()
        .auth(plain.clientId, plain.clientSecret)
        .type('form')
        .send(passwordForm({ client_id: undefined, client_secret: undefined }))
        .expect(200);
    });

    it('still refuses a secret that matches neither as sent nor decoded', async () => {
      const response = await post()
        .auth(formEncode(client.clientId), formEncode(`${client.clientSecret}x`))
        .type('form')
        .send(passwordForm({ client_id: undefined, client_secret: undefined }))
        .expect(401);

      expect(response.body).toEqual(oauthErrorStub.invalidClient);
    });
  });

  describe('scope (as league/oauth2-server under simple_oauth)', () => {
    it.each([
      ['no scope', undefined],
      ['an empty scope', ''],
      ['the scope tokens carry', 'authenticated'],
      ['it twice with spaces around', ' authenticated  authenticated '],
    ])('grants %s a token whose scope is authenticated', async (_case, scope) => {
      const response = await post().type('form').send(passwordForm({ scope })).expect(200);

      expect(decodeJwt(response.body.access_token).scope).toBe('authenticated');
      expect(Object.keys(response.body)).toEqual(['token_type', 'expires_in', 'access_token', 'refresh_token']);
    });

    it.each([
      ['another scope', 'sensors:write', 'sensors:write'],
      ['the first unknown one of several', 'authenticated sensors:write admin', 'sensors:write'],
      ['a scope written as PHP escapes it', '<b>"x"&amp;', '&lt;b&gt;&quot;x&quot;&amp;'],
    ])('refuses %s with 400 invalid_scope naming it', async (_case, scope, hinted) => {
      const response = await post().type('form').send(passwordForm({ scope })).expect(400);

      expect(response.body).toEqual(oauthErrorStub.invalidScope(hinted));
    });

    it('checks the client before the scope, and the scope before the user', async () => {
      await post()
        .type('form')
        .send(passwordForm({ scope: 'admin', client_secret: 'wrong' }))
        .expect(401);
      const response = await post()
        .type('form')
        .send(passwordForm({ scope: 'admin', password: 'wrong password' }))
        .expect(400);
      expect(response.body).toEqual(oauthErrorStub.invalidScope('admin'));
      expect(await testApp.dataSource.getRepository(LoginFailureEntity).count()).toBe(0);
    });

    it('answers a scope given twice with invalid_request naming it', async () => {
      const form = new URLSearchParams(passwordForm({ scope: 'authenticated' }));
      form.append('scope', 'authenticated');

      const response = await post().type('form').send(form.toString()).expect(400);

      expect(response.body).toEqual(oauthErrorStub.invalidRequest('scope'));
    });
  });

  it("takes the form's client credentials when HTTP Basic names other ones", async () => {
    const other = await createClient(testApp.app);

    const wrongBasic = await post().auth(client.clientId, 'not-the-secret').type('form').send(passwordForm()).expect(200);
    const otherBasic = await post().auth(other.clientId, other.clientSecret).type('form').send(passwordForm()).expect(200);

    expect(decodeJwt(wrongBasic.body.access_token).aud).toBe(client.clientId);
    expect(decodeJwt(otherBasic.body.access_token).aud).toBe(client.clientId);
  });

  describe('what the form parser refuses, answered with a JSON message', () => {
    it('a body over 64 KiB: 413, and no password checked', async () => {
      const verify = jest.spyOn(testApp.app.get(PasswordHasher), 'verify');
      const form = new URLSearchParams(passwordForm());
      form.set('padding', 'x'.repeat(64 * 1024));

      const response = await post().type('form').send(form.toString()).expect(413);

      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.body).toEqual({ message: 'Request body is larger than the 64 KiB limit.' });
      expect(verify).not.toHaveBeenCalled();
    });

    it('more than 1,000 parameters: 413 too many parameters', async () => {
      const form = new URLSearchParams(passwordForm());
      for (let index = form.size; index <= 1000; index++) form.append(`p${index}`, '1');

      const response = await post().type('form').send(form.toString()).expect(413);

      expect(response.body).toEqual({ message: 'too many parameters' });
    });

    it.each(['latin1', 'Windows-1252'])('a charset other than UTF-8: 415 naming it as sent (%s)', async (charset) => {
      const response = await post()
        .set('Content-Type', `application/x-www-form-urlencoded; charset=${charset}`)
        .send(new URLSearchParams(passwordForm()).toString())
        .expect(415);

      expect(response.body).toEqual({ message: `unsupported charset "${charset}"` });
    });

    it('a form of exactly 1,000 parameters and UTF-8 is read', async () => {
      const form = new URLSearchParams(passwordForm());
      for (let index = form.size; index < 1000; index++) form.append(`p${index}`, '1');

      await post().set('Content-Type', 'application/x-www-form-urlencoded; charset=utf-8').send(form.toString()).expect(200);
    });
  });

  describe('a compressed form (Content-Encoding)', () => {
    const ENCODERS = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync };
    const postEncoded = (encoding: string, bytes: Buffer) =>
      post()
        .set('Content-Type', 'application/x-www-form-urlencoded')
        .set('Content-Encoding', encoding)
        .serialize((body) => body as unknown as string)
        .send(bytes as unknown as string);

    it.each(Object.keys(ENCODERS))('reads a %s form', async (encoding) => {
      const form = Buffer.from(new URLSearchParams(passwordForm()).toString());

      const response = await postEncoded(encoding, ENCODERS[encoding as keyof typeof ENCODERS](form)).expect(200);

      expect(response.body.token_type).toBe('Bearer');
    });

    it.each(Object.keys(ENCODERS))(
      'answers a body that is not %s data invalid_request, saying so, and checks no password',
      async (encoding) => {
        const verify = jest.spyOn(testApp.app.get(PasswordHasher), 'verify');
        const description = `The request body is not valid ${encoding} data, as its Content-Encoding says.`;

        const response = await postEncoded(encoding, Buffer.from(new URLSearchParams(passwordForm()).toString())).expect(400);

        expect([response.headers['content-type'], response.body]).toEqual([
          'application/json; charset=utf-8',
          { error: 'invalid_request', error_description: description, message: description },
        ]);
        expect(verify).not.toHaveBeenCalled();
      },
    );
  });

  it('gives tokens to an active user without the ingest permission', async () => {
    const reader = await createUser(testApp.app, { ingest: false });

    await post()
      .type('form')
      .send(passwordForm({ username: reader.username, password: reader.password }))
      .expect(200);
  });

  it.each([
    ['missing', undefined],
    ['unknown', 'client_credentials'],
    ['empty', ''],
  ])('answers a %s grant_type with unsupported_grant_type', async (_case, grantType) => {
    const response = await post()
      .type('form')
      .send(passwordForm({ grant_type: grantType }))
      .expect(400);

    expect(response.body).toEqual(oauthErrorStub.unsupportedGrantType);
  });

  it.each(['client_id', 'username', 'password'])('answers a missing %s with invalid_request naming it', async (parameter) => {
    const response = await post()
      .type('form')
      .send(passwordForm({ [parameter]: undefined }))
      .expect(400);

    expect(response.body).toEqual(oauthErrorStub.invalidRequest(parameter));
  });

  it('answers a parameter given twice with invalid_request naming it', async () => {
    const form = new URLSearchParams(passwordForm());
    form.append('username', 'someone-else');

    const response = await post().type('form').send(form.toString()).expect(400);

    expect(response.body).toEqual(oauthErrorStub.invalidRequest('username'));
  });

  it.each([
    ['a wrong secret', { client_secret: 'not-the-secret' }],
    ['no secret', { client_secret: undefined }],
    ['an unknown client', { client_id: 'no-such-client' }],
  ])('answers %s with 401 invalid_client and no challenge', async (_case, overrides) => {
    const response = await post().type('form').send(passwordForm(overrides)).expect(401);

    expect(response.body).toEqual(oauthErrorStub.invalidClient);
    expect(response.headers['www-authenticate']).toBeUndefined();
  });

  it('challenges with Basic realm="OAuth" when HTTP Basic credentials fail', async () => {
    const response = await post()
      .auth(client.clientId, 'wrong')
      .type('form')
      .send(passwordForm({ client_id: undefined, client_secret: undefined }))
      .expect(401);

    expect(response.body).toEqual(oauthErrorStub.invalidClient);
    expect(response.headers['www-authenticate']).toBe('Basic realm="OAuth"');
  });

  it.each<[string, Record<string, string>]>([
    ['a wrong password', { password: 'wrong' }],
    ['an unknown user', { username: 'nobody' }],
  ])('answers %s with invalid_grant and counts the failure', async (_case, overrides) => {
    const response = await post().type('form').send(passwordForm(overrides)).expect(400);

    expect(response.body).toEqual(oauthErrorStub.invalidCredentials);
    const failures = await testApp.dataSource.getRepository(LoginFailureEntity).find();
    expect(failures).toEqual([expect.objectContaining({ username: (overrides.username ?? user.username).toLowerCase() })]);
  });

  it('answers an unknown name exactly as a wrong password, after one password check of its own', async () => {
    const verify = jest.spyOn(testApp.app.get(PasswordHasher), 'verify');
    const answer = async (overrides: Record<string, string>) => {
      const response = await post().type('form').send(passwordForm(overrides));
      return { status: response.status, contentType: response.headers['content-type'], body: response.text };
    };

    const wrongPassword = await answer({ password: 'wrong' });
    const unknownName = await answer({ username: 'nobody', password: 'wrong' });

    expect(unknownName).toEqual(wrongPassword);
    expect(wrongPassword.status).toBe(400);
    // Both are checked with Argon2: the unknown name against a dummy hash (absent here, supplied by the hasher).
    expect(verify.mock.calls).toEqual([
      [expect.stringMatching(/^\$argon2id\$/), 'wrong'],
      [undefined, 'wrong'],
    ]);
    await expect(Promise.all(verify.mock.results.map((result) => result.value))).resolves.toEqual([false, false]);
  });

  it('refuses a blocked user even with the right password', async () => {
    await testApp.app.get(UsersService).block(user.username);

    const response = await post().type('form').send(passwordForm()).expect(400);

    expect(response.body).toEqual(oauthErrorStub.invalidCredentials);
    expect(await testApp.dataSource.getRepository(RefreshTokenEntity).count()).toBe(0);
  });

  it.each([
    ['JSON', 'application/json', JSON.stringify({ grant_type: 'password' })],
    ['plain text', 'text/plain', 'grant_type=password'],
  ])('refuses a %s body with invalid_request', async (_case, contentType, body) => {
    const response = await post().set('Content-Type', contentType).send(body).expect(400);

    expect(response.body).toEqual(oauthErrorStub.invalidContentType);
  });

  it('refuses a request without a body or content type with invalid_request', async () => {
    const response = await post().expect(400);

    expect(response.body).toEqual(oauthErrorStub.invalidContentType);
  });

  it('answers GET on the token path with 405', async () => {
    const response = await request(testApp.app.getHttpServer()).get(TOKEN_PATH).expect(405);

    expect(response.body.message).toMatch(/Method Not Allowed \(Allow: POST\)/);
  });
});

describe('GET /session/token', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('answers a fresh random token as text/plain', async () => {
    const first = await request(testApp.app.getHttpServer()).get('/session/token').expect(200);
    const second = await request(testApp.app.getHttpServer()).get('/session/token').expect(200);

    expect(first.headers['content-type']).toMatch(/^text\/plain/);
    expect(first.text).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(second.text).not.toBe(first.text);
  });
});
