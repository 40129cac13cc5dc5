import request from 'supertest';
import { oauthErrorStub } from './fixtures/oauth-errors.stub.js';
import { createClient, createPublicClient, createUser, TOKEN_PATH, type TestClient, type TestUser } from './utils/auth-fixtures.js';
import { createTestApp, type TestApp } from './utils/test-app.js';

const NAME_LIMIT = 3;
const TOO_MANY_FOR_NAME = 'Too many failed login attempts for this account. It is temporarily blocked. Try again later.';

/**
 * Public clients (RFC 6749 §2.1; docs/interface.md#the-token-endpoint): a client that cannot keep a
 * secret, such as the fleet page in a browser, is known by its id alone; a confidential client still
 * needs its secret; the failed-login limits hold for both.
 */
describe('Token endpoint: public clients', () => {
  let testApp: TestApp;
  let publicClientId: string;
  let confidential: TestClient;
  let user: TestUser;
  const savedLimit = process.env.LOGIN_FAILURES_PER_USERNAME;

  const grant = (form: Record<string, string>) => request(testApp.app.getHttpServer()).post(TOKEN_PATH).type('form').send(form);
  const passwordForm = (clientId: string, password = user.password) => ({
    grant_type: 'password',
    client_id: clientId,
    username: user.username,
    password,
  });

  beforeAll(async () => {
    process.env.LOGIN_FAILURES_PER_USERNAME = String(NAME_LIMIT);
    testApp = await createTestApp();
  });

  beforeEach(async () => {
    await testApp.reset();
    publicClientId = await createPublicClient(testApp.app);
    confidential = await createClient(testApp.app);
    user = await createUser(testApp.app);
  });

  afterAll(async () => {
    await testApp.close();
    if (savedLimit === undefined) delete process.env.LOGIN_FAILURES_PER_USERNAME;
    else process.env.LOGIN_FAILURES_PER_USERNAME = savedLimit;
  });

  it('gives a public client tokens for the password grant without a secret, and refreshes them without one', async () => {
    const first = await grant(passwordForm(publicClientId)).expect(200);
    expect(first.body).toMatchObject({ token_type: 'Bearer', expires_in: 300 });

    const refreshed = await grant({
      grant_type: 'refresh_token',
      client_id: publicClientId,
      refresh_token: first.body.refresh_token,
    }).expect(200);

    expect(refreshed.body.refresh_token).not.toBe(first.body.refresh_token);
    await request(testApp.app.getHttpServer())
      .get('/api-sensor/sensors')
      .set('Authorization', `Bearer ${refreshed.body.access_token}`)
      .expect(200);
  });

  it('takes a public client by HTTP Basic with an empty secret, and an empty client_secret in the form', async () => {
    const { client_id: _id, ...form } = passwordForm(publicClientId);
    await grant(form).auth(publicClientId, '').expect(200);
    await grant({ ...passwordForm(publicClientId), client_secret: '' }).expect(200);
  });

  it('refuses a secret sent with a public client: it has none to match', async () => {
    const response = await grant({ ...passwordForm(publicClientId), client_secret: 'anything' }).expect(401);

    expect(response.body).toEqual(oauthErrorStub.invalidClient);
  });

  it("refuses a confidential client's grants without its secret, as before", async () => {
    await grant(passwordForm(confidential.clientId)).expect(401);
    const tokens = await grant({ ...passwordForm(confidential.clientId), client_secret: confidential.clientSecret }).expect(200);

    const response = await grant({
      grant_type: 'refresh_token',
      client_id: confidential.clientId,
      refresh_token: tokens.body.refresh_token,
    }).expect(401);

    expect(response.body).toEqual(oauthErrorStub.invalidClient);
  });

  it('refuses a refresh token of one client presented by another, the public one included', async () => {
    const tokens = await grant({ ...passwordForm(confidential.clientId), client_secret: confidential.clientSecret }).expect(200);

    const response = await grant({
      grant_type: 'refresh_token',
      client_id: publicClientId,
      refresh_token: tokens.body.refresh_token,
    }).expect(400);

    expect(response.body).toEqual(oauthErrorStub.invalidRefreshToken('Token is not linked to client'));
  });

  it('counts failed password grants through a public client toward the same limits', async () => {
    for (let attempt = 0; attempt < NAME_LIMIT; attempt++) {
      expect((await grant(passwordForm(publicClientId, 'wrong password')).expect(400)).body).toEqual(oauthErrorStub.invalidCredentials);
    }

    const limited = await grant(passwordForm(publicClientId)).expect(429);

    expect(limited.body).toMatchObject({ error: 'too_many_requests', message: TOO_MANY_FOR_NAME });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });
});
