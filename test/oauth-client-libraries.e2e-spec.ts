import { OAuth2Client } from '@badgateway/oauth2-client';
import type { AddressInfo } from 'node:net';
import * as oauth from 'oauth4webapi';
import * as openid from 'openid-client';
import { ResourceOwnerPassword } from 'simple-oauth2';
import { createClient, createUser, TOKEN_PATH, type TestClient, type TestUser } from './utils/auth-fixtures.js';
import { createTestApp, type TestApp } from './utils/test-app.js';

/**
 * OAuth 2.0 client libraries from npm, each driving the token endpoint over HTTP as an integrator's
 * code would: RFC 6749 §2.3.1 has a client form-encode its id and secret before they go into the Basic
 * header (a UUID's `-` as `%2D`, a secret's `/ + = :` as `%2F %2B %3D %3A`), and the strict ones do.
 */
describe('Token endpoint: OAuth 2.0 client libraries', () => {
  let testApp: TestApp;
  let base: string;
  let client: TestClient;
  let user: TestUser;

  beforeAll(async () => {
    testApp = await createTestApp();
    await testApp.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(testApp.app.getHttpServer().address() as AddressInfo).port}`;
  });

  beforeEach(async () => {
    await testApp.reset();
    // Every character a form-encoder changes: the secret only works when the server decodes it.
    client = await createClient(testApp.app, { secret: 'a/b+c=d:e f%g~h*i' });
    user = await createUser(testApp.app, { username: 'gateway-01', password: 'a long passphrase' });
  });

  afterAll(async () => {
    await testApp.close();
  });

  const server = (): oauth.AuthorizationServer => ({ issuer: base, token_endpoint: `${base}${TOKEN_PATH}` });

  describe('with client_secret_basic', () => {
    it('oauth4webapi: password grant, then refresh', async () => {
      const as = server();
      const auth = oauth.ClientSecretBasic(client.clientSecret);
      const options = { [oauth.allowInsecureRequests]: true };
      const granted = await oauth.processGenericTokenEndpointResponse(
        as,
        { client_id: client.clientId },
        await oauth.genericTokenEndpointRequest(
          as,
          { client_id: client.clientId },
          auth,
          'password',
          { username: user.username, password: user.password },
          options,
        ),
      );
      expect(granted.token_type).toBe('bearer');
      const refreshed = await oauth.processRefreshTokenResponse(
        as,
        { client_id: client.clientId },
        await oauth.refreshTokenGrantRequest(as, { client_id: client.clientId }, auth, granted.refresh_token!, options),
      );
      expect(refreshed.access_token).not.toBe(granted.access_token);
    });

    it('openid-client: password grant, then refresh', async () => {
      const config = new openid.Configuration(server(), client.clientId, undefined, openid.ClientSecretBasic(client.clientSecret));
      openid.allowInsecureRequests(config);
      const granted = await openid.genericGrantRequest(config, 'password', { username: user.username, password: user.password });
      expect(granted.expires_in).toBe(300);
      const refreshed = await openid.refreshTokenGrant(config, granted.refresh_token!);
      expect(refreshed.refresh_token).not.toBe(granted.refresh_token);
    });

    it('@badgateway/oauth2-client: password grant, then refresh', async () => {
      const oauthClient = new OAuth2Client({
        server: base,
        tokenEndpoint: TOKEN_PATH,
        clientId: client.clientId,
        clientSecret: client.clientSecret,
        authenticationMethod: 'client_secret_basic',
      });
      const granted = await oauthClient.password({ username: user.username, password: user.password });
      expect(granted.expiresAt).toEqual(expect.any(Number));
      const refreshed = await oauthClient.refreshToken(granted);
      expect(refreshed.accessToken).not.toBe(granted.accessToken);
    });

    it('simple-oauth2 with its defaults (Basic, strict encoding): password grant, then refresh', async () => {
      const oauthClient = new ResourceOwnerPassword({
        client: { id: client.clientId, secret: client.clientSecret },
        auth: { tokenHost: base, tokenPath: TOKEN_PATH },
      });
      const granted = await oauthClient.getToken({ username: user.username, password: user.password });
      const refreshed = await granted.refresh();
      expect(refreshed.token.access_token).not.toBe(granted.token.access_token);
    });
  });

  it('@badgateway/oauth2-client sending its credentials unencoded (client_secret_basic_interop) is still accepted', async () => {
    // Unencoded, a `+` is a plus: the value as sent is compared first. (This mode encodes a `:` alone, so none here.)
    const unencoded = await createClient(testApp.app, { secret: 'a/b+c=d~h*i%2B' });
    const oauthClient = new OAuth2Client({
      server: base,
      tokenEndpoint: TOKEN_PATH,
      clientId: unencoded.clientId,
      clientSecret: unencoded.clientSecret,
      authenticationMethod: 'client_secret_basic_interop',
    });
    await expect(oauthClient.password({ username: user.username, password: user.password })).resolves.toHaveProperty('accessToken');
  });

  describe('scope', () => {
    it('asking for the scope tokens carry (`authenticated`) is granted', async () => {
      const oauthClient = new OAuth2Client({
        server: base,
        tokenEndpoint: TOKEN_PATH,
        clientId: client.clientId,
        clientSecret: client.clientSecret,
        authenticationMethod: 'client_secret_post',
      });
      await expect(
        oauthClient.password({ username: user.username, password: user.password, scope: ['authenticated'] }),
      ).resolves.toHaveProperty('accessToken');
    });

    it('asking for another scope is refused with invalid_scope, which the libraries report as such', async () => {
      const as = server();
      const response = await oauth.genericTokenEndpointRequest(
        as,
        { client_id: client.clientId },
        oauth.ClientSecretPost(client.clientSecret),
        'password',
        { username: user.username, password: user.password, scope: 'sensors:write' },
        { [oauth.allowInsecureRequests]: true },
      );
      const refused = await oauth
        .processGenericTokenEndpointResponse(as, { client_id: client.clientId }, response)
        .catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(oauth.ResponseBodyError);
      expect(refused).toMatchObject({
        status: 400,
        error: 'invalid_scope',
        error_description: 'The requested scope is invalid, unknown, or malformed',
      });

      const simple = new ResourceOwnerPassword({
        client: { id: client.clientId, secret: client.clientSecret },
        auth: { tokenHost: base, tokenPath: TOKEN_PATH },
      });
      const boom = await simple
        .getToken({ username: user.username, password: user.password, scope: ['sensors:write'] })
        .catch((error: unknown) => error);
      expect((boom as { data?: { payload?: unknown } }).data?.payload).toMatchObject({
        error: 'invalid_scope',
        hint: 'Check the `sensors:write` scope',
      });
    });
  });
});
