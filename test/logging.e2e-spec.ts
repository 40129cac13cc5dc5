import request from 'supertest';
import { INTEGRATION_KEY_MESSAGES } from '../src/integrations/key/integration-key-refusal.js';
import { LOG_DESTINATION } from '../src/logging/logging.module.js';
import { submissionStub } from './fixtures/submission.stub.js';
import { chirpstackEventStub } from './fixtures/chirpstack-event.stub.js';
import { ttsUplinkStub } from './fixtures/tts-uplink.stub.js';
import { UsersService } from '../src/auth/users/users.service.js';
import { BatchesInFlight } from '../src/sensor-record/batch/batches-in-flight.js';
import { createClient, createUser, ingestCaller, TOKEN_PATH } from './utils/auth-fixtures.js';
import { SENSOR_RECORD_BATCH_URL, submitBatch } from './utils/sensor-record-api.js';
import { CHIRPSTACK_URL, createIntegration, postChirpstackEvent, postTtsUplink, TTS_UPLINK_URL } from './utils/integration-api.js';
import { createTestApp, TestApp } from './utils/test-app.js';

const RECORD_PATH = '/api-sensor/iot/sensor-record';

/**
 * Captured at the most verbose level, so that what holds here (one line per request, no secret on
 * any line) holds at every level.
 */
describe('Request logs', () => {
  const saved = { ...process.env };
  const written: string[] = [];
  let testApp: TestApp;

  beforeAll(async () => {
    process.env.LOG_LEVEL = 'trace';
    testApp = await createTestApp({
      override: (builder) => builder.overrideProvider(LOG_DESTINATION).useValue({ write: (line: string) => written.push(line) }),
    });
  });

  afterAll(async () => {
    await testApp.close();
    process.env = { ...saved };
  });

  const lines = () =>
    written
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);

  it('writes one JSON line per request with its id, method, route, status, duration, device and user', async () => {
    const client = await createClient(testApp.app);
    const user = await createUser(testApp.app);
    const granted = await request(testApp.app.getHttpServer())
      .post(TOKEN_PATH)
      .type('form')
      .send({
        grant_type: 'password',
        client_id: client.clientId,
        client_secret: client.clientSecret,
        username: user.username,
        password: user.password,
      })
      .expect(200);
    written.length = 0;

    const created = await request(testApp.app.getHttpServer())
      .post(RECORD_PATH)
      .set('Authorization', `Bearer ${granted.body.access_token}`)
      .set('Content-Type', 'application/hal+json')
      .set('X-Request-Id', 'trap-42')
      .send(JSON.stringify(submissionStub.complete))
      .expect(201);

    const requestLines = lines().filter((line) => line.request_id === 'trap-42');
    expect(created.headers['x-request-id']).toBe('trap-42');
    expect(requestLines).toHaveLength(1);
    expect(requestLines[0]).toMatchObject({
      req: { method: 'POST', path: RECORD_PATH },
      res: { status: 201 },
      route: RECORD_PATH,
      dev_id: submissionStub.complete.dev_id,
      uid: user.uid,
    });
    expect(typeof requestLines[0]?.duration_ms).toBe('number');
  });

  it('says why a token was refused, and names the request by its id, on the request line and the error line', async () => {
    const client = await createClient(testApp.app);
    const user = await createUser(testApp.app);
    const tokens = await request(testApp.app.getHttpServer())
      .post(TOKEN_PATH)
      .type('form')
      .send({
        grant_type: 'password',
        client_id: client.clientId,
        client_secret: client.clientSecret,
        username: user.username,
        password: user.password,
      })
      .expect(200);
    await testApp.app.get(UsersService).block(user.username);
    written.length = 0;

    const refused = await request(testApp.app.getHttpServer())
      .post(RECORD_PATH)
      .set('Authorization', `Bearer ${tokens.body.access_token}`)
      .set('Content-Type', 'application/hal+json')
      .send(JSON.stringify(submissionStub.complete))
      .expect(403);

    const requestId = refused.headers['x-request-id'];
    const requestLine = lines().find((line) => line.res !== undefined);
    expect(requestLine).toMatchObject({ request_id: requestId, res: { status: 403 }, token_refused: 'user_blocked' });
    const errorLine = lines().find((line) => String(line.msg).includes('-> 403'));
    expect(errorLine?.msg).toContain(`request_id=${requestId}`);
    expect(errorLine?.request_id).toBe(requestId);
  });

  it('names the request on the error line of a batch refused for want of room', async () => {
    written.length = 0;
    // Every place for a batch is taken, so the next one is answered 503 before its body is read.
    const room = testApp.app.get(BatchesInFlight);
    const taken = Array.from({ length: room.limit }, () => room.tryTake()).filter((release) => release !== false);
    try {
      const { accessToken } = await ingestCaller(testApp.app);
      const refused = await request(testApp.app.getHttpServer())
        .post('/api-sensor/iot/sensor-records')
        .set('Authorization', `Bearer ${accessToken}`)
        .set('Content-Type', 'application/json')
        .send(JSON.stringify([submissionStub.complete]))
        .expect(503);

      // No X-Request-Id was sent: the id is the one the request logger made up and answered with.
      const requestId = refused.headers['x-request-id'];
      expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(lines().find((line) => String(line.msg).includes('-> 503'))?.msg).toContain(`request_id=${requestId}`);
      // Backpressure is a deliberate answer: warned of (pino's 40), never logged as an error (50).
      const requestLines = lines().filter((line) => line.request_id === requestId);
      expect(requestLines.find((line) => line.res !== undefined)).toMatchObject({ level: 40, res: { status: 503 } });
      expect(requestLines.filter((line) => Number(line.level) >= 50)).toEqual([]);
    } finally {
      for (const leave of taken) leave();
    }
  });

  it('writes the line of a request refused before any route, and names it by its id', async () => {
    written.length = 0;

    const refused = await request(testApp.app.getHttpServer()).get('/node/%ff').set('X-Request-Id', 'trap-43').expect(400);

    expect(refused.headers['x-request-id']).toBe('trap-43');
    expect(lines().filter((line) => 'res' in line)).toEqual([
      expect.objectContaining({ request_id: 'trap-43', req: { method: 'GET', path: '/node/%ff' }, res: { status: 400 } }),
    ]);
  });

  it('names the number of reports and the user on the line of a batch', async () => {
    const caller = await ingestCaller(testApp.app);
    written.length = 0;

    await submitBatch(testApp.app, [submissionStub.minimal, submissionStub.complete, submissionStub.trapSprung], {
      token: caller.accessToken,
    }).expect(201);

    // The request's own line: the one with its answer (at this level the service says more on other lines).
    expect(lines().filter((line) => 'res' in line)).toEqual([
      expect.objectContaining({
        req: expect.objectContaining({ method: 'POST' }),
        res: expect.objectContaining({ status: 201 }),
        route: SENSOR_RECORD_BATCH_URL,
        reports: 3,
        uid: caller.uid,
      }),
    ]);
  });

  it.each([
    ['stored', 201],
    ['duplicate', 200],
  ] as const)('names the user, the integration, the outcome and the device on the line of an uplink %s', async (outcome, status) => {
    const integration = await createIntegration(testApp.app, { network: 'tts' });
    if (outcome === 'duplicate') await postTtsUplink(testApp.app, ttsUplinkStub.threeGateways, integration.apiKey).expect(201);
    written.length = 0;

    const answer = await postTtsUplink(testApp.app, ttsUplinkStub.threeGateways, integration.apiKey).expect(status);

    // The request's own line: the one with its answer (at this level the service says more on other lines).
    expect(lines().filter((line) => 'res' in line)).toEqual([
      expect.objectContaining({
        res: expect.objectContaining({ status }),
        route: TTS_UPLINK_URL,
        uid: integration.user.uid,
        integration_id: integration.integrationId,
        uplink: outcome,
        dev_id: answer.body.field_sensor_id[0].value,
      }),
    ]);
  });

  it('never writes authorization headers, tokens, passwords, client secrets or integration keys, wherever they were sent', async () => {
    written.length = 0;
    const secrets = await exerciseEverySecret(testApp);
    const everything = written.join('');

    expect(lines().length).toBeGreaterThanOrEqual(16);
    for (const [name, secret] of Object.entries(secrets)) {
      expect({ name, found: everything.includes(secret) }).toEqual({ name, found: false });
    }
    // The one place these words may stand is the refusal that tells a caller how to send a key.
    const withoutThatAdvice = everything.replaceAll(JSON.stringify(INTEGRATION_KEY_MESSAGES.missing).slice(1, -1), '');
    expect(withoutThatAdvice).not.toMatch(/authorization|bearer|basic /i);
  });
});

/**
 * Sends every kind of secret the service accepts in every place a caller may put it (form body,
 * HTTP Basic, the Authorization header, the query string), in answers that succeed and that fail;
 * returns each secret by name, including the JWT signatures on their own.
 */
async function exerciseEverySecret(testApp: TestApp): Promise<Record<string, string>> {
  const server = testApp.app.getHttpServer();
  const client = await createClient(testApp.app);
  const user = await createUser(testApp.app, { password: 'pest-control-secret-passphrase' });
  const wrongPassword = `${user.password}-wrong`;
  const basic = Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64');
  const wrongBasic = Buffer.from(`${client.clientId}:${client.clientSecret}-wrong`).toString('base64');
  const formClient = { client_id: client.clientId, client_secret: client.clientSecret };
  const token = () => request(server).post(TOKEN_PATH).type('form');
  const submit = (path: string, authorization?: string) => {
    const call = request(server).post(path).set('Content-Type', 'application/hal+json');
    return (authorization ? call.set('Authorization', authorization) : call).send(JSON.stringify(submissionStub.complete));
  };
  const form = { grant_type: 'password', username: user.username, password: user.password };

  // Password and client secret: client in HTTP Basic, then in the form, then with a wrong password.
  const granted = await token().set('Authorization', `Basic ${basic}`).send(form).expect(200);
  await token()
    .send({ ...form, ...formClient })
    .expect(200);
  await token()
    .send({ ...form, ...formClient, password: wrongPassword })
    .expect(400);
  await token().set('Authorization', `Basic ${wrongBasic}`).send(form).expect(401);
  // Secrets in the token endpoint's query string, where they do not belong.
  const query = new URLSearchParams({ ...form, ...formClient, refresh_token: granted.body.refresh_token }).toString();
  await request(server).post(`${TOKEN_PATH}?${query}`).type('form').send({ grant_type: 'password' }).expect(400);

  // The refresh token sent in a refresh grant, with the client in the form and in Basic; then sent again (reuse).
  const refreshed = await token()
    .send({ grant_type: 'refresh_token', ...formClient, refresh_token: granted.body.refresh_token })
    .expect(200);
  const second = await token()
    .set('Authorization', `Basic ${basic}`)
    .send({ grant_type: 'refresh_token', refresh_token: refreshed.body.refresh_token })
    .expect(200);
  await token()
    .send({ grant_type: 'refresh_token', ...formClient, refresh_token: granted.body.refresh_token })
    .expect(400);
  const fresh = await token()
    .send({ ...form, ...formClient })
    .expect(200);

  // The access token: as Bearer (accepted and refused), and in the query string and form body, which are never read.
  const accessToken = fresh.body.access_token as string;
  await submit(RECORD_PATH, `Bearer ${accessToken}`).expect(201);
  await submit(RECORD_PATH, `Bearer ${accessToken}x`).expect(403);
  await submit(`${RECORD_PATH}?access_token=${accessToken}`).expect(403);
  await request(server).get(`/node/1?access_token=${accessToken}`).expect(403);
  await request(server)
    .get('/node/1')
    .set('Authorization', `bearer ${accessToken}`)
    .expect((response) => expect(response.status).toBeLessThan(500));
  await request(server).get('/node/1').set('Authorization', `Bearer ${granted.body.access_token}`).expect(403);
  await request(server).post(RECORD_PATH).type('form').send({ access_token: accessToken }).expect(403);
  await request(server).get('/node/1').set('Authorization', `Basic ${basic}`).expect(403);

  // A network server's integration key: as it is sent, to the wrong network's route, to a token route,
  // in the query string, and one character off.
  const integration = await createIntegration(testApp.app, { network: 'tts' });
  const wrongKey = `${integration.apiKey}x`;
  await postTtsUplink(testApp.app, ttsUplinkStub.threeGateways, integration.apiKey).expect(201);
  await postTtsUplink(testApp.app, ttsUplinkStub.threeGateways, wrongKey).expect(401);
  await postChirpstackEvent(testApp.app, 'up', chirpstackEventStub.up, integration.apiKey).expect(403);
  await submit(RECORD_PATH, `Bearer ${integration.apiKey}`).expect(403);
  await request(server).post(`${TTS_UPLINK_URL}?api_key=${integration.apiKey}`).send(ttsUplinkStub.threeGateways).expect(401);
  await request(server).post(`${CHIRPSTACK_URL}?event=up&key=${wrongKey}`).send(chirpstackEventStub.up).expect(401);

  const signature = (jwt: string) => jwt.split('.')[2] ?? '';
  return {
    integrationKey: integration.apiKey,
    wrongIntegrationKey: wrongKey,
    password: user.password,
    wrongPassword,
    clientSecret: client.clientSecret,
    basic,
    wrongBasic,
    sentRefreshToken: granted.body.refresh_token,
    rotatedRefreshToken: refreshed.body.refresh_token,
    answeredRefreshToken: second.body.refresh_token,
    revokedAccessToken: granted.body.access_token,
    accessToken,
    accessTokenSignature: signature(accessToken),
    revokedAccessTokenSignature: signature(granted.body.access_token),
  };
}
