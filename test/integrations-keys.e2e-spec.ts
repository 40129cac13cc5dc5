import request from 'supertest';
import { ClientsService } from '../src/auth/clients/clients.service.js';
import { UsersService } from '../src/auth/users/users.service.js';
import { runCommand, type CliServices } from '../src/cli/commands.js';
import { IntegrationsService } from '../src/integrations/admin/integrations.service.js';
import { INTEGRATION_KEY_CACHE_MS } from '../src/integrations/key/integration-key-state.service.js';
import { FORBIDDEN_CREATE } from './fixtures/oauth-errors.stub.js';
import { submissionStub } from './fixtures/submission.stub.js';
import { chirpstackEventStub } from './fixtures/chirpstack-event.stub.js';
import { ttsUplinkStub } from './fixtures/tts-uplink.stub.js';
import { createClient, createUser, ingestCaller, TOKEN_PATH } from './utils/auth-fixtures.js';
import { FakeClock } from './utils/fake-clock.js';
import { createIntegration, postChirpstackEvent, postTtsUplink, type TestIntegration } from './utils/integration-api.js';
import { storedRows, submit } from './utils/sensor-record-api.js';
import { createTestApp, type TestApp } from './utils/test-app.js';

const ADDRESS_LIMIT = 3;
const ADDRESS_WINDOW = 600;
const LIMITS = { LOGIN_FAILURES_PER_ADDRESS: String(ADDRESS_LIMIT), LOGIN_FAILURE_ADDRESS_WINDOW: String(ADDRESS_WINDOW) };

const unauthorized = (message: string) => ({ message });
const MISSING = 'An integration key is required: send it as "Authorization: Bearer <api_key>".';
const UNKNOWN = 'The integration key is not valid.';
const REVOKED = 'The integration key has been revoked.';
const TOO_MANY = 'Too many requests with a missing or invalid integration key from your IP address. Try again later.';

/**
 * Integration keys: the integration routes take them and nothing else, the other routes never take
 * them; revoking a key or blocking its user reaches the routes within 5 seconds (the clock the
 * per-instance cache reads is moved rather than waited for); a missing, unknown or revoked key counts
 * toward its address's limit of failed authentications.
 */
describe('Integration keys', () => {
  const clock = new FakeClock();
  let testApp: TestApp;
  let integration: TestIntegration;
  let cli: CliServices;
  let saved: Record<string, string | undefined>;

  const post = (key?: string) => postTtsUplink(testApp.app, ttsUplinkStub.threeGateways, key);
  /** The same uplink under a new frame counter each time, so that each is stored rather than answered as a repeat. */
  let counter = 0;
  const postNew = (key: string) => {
    const uplink = structuredClone(ttsUplinkStub.threeGateways);
    uplink.uplink_message.f_cnt = 5000 + ++counter;
    return postTtsUplink(testApp.app, uplink, key);
  };

  beforeAll(async () => {
    saved = Object.fromEntries(Object.keys(LIMITS).map((name) => [name, process.env[name]]));
    Object.assign(process.env, LIMITS);
    testApp = await createTestApp({ override: clock.install });
    cli = {
      users: testApp.app.get(UsersService),
      clients: testApp.app.get(ClientsService),
      integrations: testApp.app.get(IntegrationsService),
    };
  });

  beforeEach(async () => {
    await testApp.reset();
    integration = await createIntegration(testApp.app, { network: 'tts' });
  });

  afterAll(async () => {
    await testApp.close();
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  describe('on the integration routes', () => {
    it('answers a missing key 401 with a Bearer challenge, before looking at the body', async () => {
      const response = await postTtsUplink(testApp.app, '{"not json', undefined).expect(401);

      expect(response.body).toEqual(unauthorized(MISSING));
      expect(response.headers['www-authenticate']).toBe('Bearer realm="integrations"');
    });

    it('answers an unknown key, and an access token, 401', async () => {
      const caller = await ingestCaller(testApp.app);

      await post('not-a-key').expect(401, unauthorized(UNKNOWN));
      await post(caller.accessToken).expect(401, unauthorized(UNKNOWN));
      expect(await storedRows(testApp.dataSource)).toEqual([]);
    });

    it("answers a key of the other network server's route 403, naming the right one", async () => {
      await postChirpstackEvent(testApp.app, 'up', chirpstackEventStub.up, integration.apiKey).expect(403, {
        message: 'This integration key is for The Things Stack: configure it with /api-sensor/integrations/tts/uplink.',
      });
    });

    it('reads the key from the Authorization header only, whatever the letter case of the scheme', async () => {
      await request(testApp.app.getHttpServer())
        .post(`/api-sensor/integrations/tts/uplink?access_token=${integration.apiKey}`)
        .set('Content-Type', 'application/json')
        .send(JSON.stringify(ttsUplinkStub.threeGateways))
        .expect(401, unauthorized(MISSING));
      await request(testApp.app.getHttpServer())
        .post('/api-sensor/integrations/tts/uplink')
        .set('Authorization', `bearer ${integration.apiKey}`)
        .set('Content-Type', 'application/json')
        .send(JSON.stringify(ttsUplinkStub.threeGateways))
        .expect(201);
    });
  });

  describe('on the other routes', () => {
    it('refuses an integration key where an access token is needed', async () => {
      const created = await post(integration.apiKey).expect(201);

      await submit(testApp.app, submissionStub.minimal, { token: integration.apiKey }).expect(403, FORBIDDEN_CREATE);
      await request(testApp.app.getHttpServer())
        .get(`/node/${created.body.nid[0].value}`)
        .set('Authorization', `Bearer ${integration.apiKey}`)
        .expect(403, { message: 'You are not authorized to view this node entity of bundle sensor_report.' });
    });
  });

  describe('revoking a key', () => {
    it('refuses it once the cached answer has aged, less than 5 seconds after integration:revoke', async () => {
      await postNew(integration.apiKey).expect(201);

      await expect(runCommand(['integration:revoke', '--id', String(integration.integrationId)], cli)).resolves.toMatchObject({
        integration_id: integration.integrationId,
        status: 'revoked',
      });
      clock.advance(INTEGRATION_KEY_CACHE_MS - 1);
      await postNew(integration.apiKey).expect(201);
      clock.advance(1);
      await postNew(integration.apiKey).expect(401, unauthorized(REVOKED));

      expect(INTEGRATION_KEY_CACHE_MS).toBeLessThan(5000);
      expect(await storedRows(testApp.dataSource)).toHaveLength(2);
    });
  });

  describe("blocking the key's user", () => {
    it('refuses its integrations within 5 seconds with 403, and takes them back on unblock', async () => {
      await postNew(integration.apiKey).expect(201);

      await runCommand(['user:block', '--username', integration.user.username], cli);
      clock.advance(INTEGRATION_KEY_CACHE_MS);
      await postNew(integration.apiKey).expect(403, { message: "The integration's user is blocked." });

      await runCommand(['user:unblock', '--username', integration.user.username], cli);
      clock.advance(INTEGRATION_KEY_CACHE_MS);
      await postNew(integration.apiKey).expect(201);
    });
  });

  describe('the per-address limit', () => {
    const passwordGrant = async () => {
      const client = await createClient(testApp.app);
      const user = await createUser(testApp.app);
      return request(testApp.app.getHttpServer()).post(TOKEN_PATH).type('form').send({
        grant_type: 'password',
        client_id: client.clientId,
        client_secret: client.clientSecret,
        username: user.username,
        password: user.password,
      });
    };

    it(`answers 429 once ${ADDRESS_LIMIT} missing, unknown or revoked keys came from the address, and lets good keys through`, async () => {
      const revoked = await createIntegration(testApp.app, { network: 'tts' });
      await testApp.app.get(IntegrationsService).revoke(revoked.integrationId);

      await post().expect(401);
      await post('guess').expect(401);
      await post(revoked.apiKey).expect(401, unauthorized(REVOKED));
      const limited = await post('another guess').expect(429, { message: TOO_MANY });

      expect(limited.headers['retry-after']).toBe(String(ADDRESS_WINDOW));
      // A good key is not a failure and is not held back by others' failures from the same address.
      await post(integration.apiKey).expect(201);
      // The limit is the one of failed password grants: the address is over it there too.
      expect((await passwordGrant()).status).toBe(429);
    });

    it('lets the address try again once the window has passed', async () => {
      for (let attempt = 0; attempt < ADDRESS_LIMIT; attempt++) await post('guess').expect(401);
      await post('guess').expect(429);

      clock.advance(ADDRESS_WINDOW * 1000);

      await post('guess').expect(401, unauthorized(UNKNOWN));
    });

    it('does not count a good key whose user may not post here', async () => {
      await runCommand(['user:block', '--username', integration.user.username], cli);
      for (let attempt = 0; attempt < ADDRESS_LIMIT + 2; attempt++) await post(integration.apiKey).expect(403);

      await post('guess').expect(401);
    });
  });
});
