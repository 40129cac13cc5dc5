import request from 'supertest';
import { LOG_DESTINATION } from '../src/logging/logging.module.js';
import { sensorReportStub } from './fixtures/sensor-report.stub.js';
import { createClient, createUser, TOKEN_PATH } from './utils/auth-fixtures.js';
import { createTestApp, TestApp } from './utils/test-app.js';

const RECORD_PATH = '/api-sensor/iot/sensor-record';

describe('Request logs', () => {
  const saved = { ...process.env };
  const written: string[] = [];
  let testApp: TestApp;

  beforeAll(async () => {
    process.env.LOG_LEVEL = 'info';
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
    const secrets = await exerciseEverySecret(testApp);
    const server = testApp.app.getHttpServer();
    written.length = 0;

    const created = await request(server)
      .post(RECORD_PATH)
      .set('Authorization', `Bearer ${secrets.accessToken}`)
      .set('Content-Type', 'application/hal+json')
      .set('X-Request-Id', 'trap-42')
      .send(JSON.stringify(sensorReportStub.complete))
      .expect(201);

    const requestLines = lines().filter((line) => line.request_id === 'trap-42');
    expect(created.headers['x-request-id']).toBe('trap-42');
    expect(requestLines).toHaveLength(1);
    expect(requestLines[0]).toMatchObject({
      req: { method: 'POST', path: RECORD_PATH },
      res: { status: 201 },
      route: RECORD_PATH,
      dev_id: sensorReportStub.complete.dev_id,
      uid: secrets.uid,
    });
    expect(typeof requestLines[0].duration_ms).toBe('number');
  });

  it('never writes authorization headers, tokens, passwords or client secrets', async () => {
    written.length = 0;
    const secrets = await exerciseEverySecret(testApp);
    const everything = written.join('');

    expect(lines().length).toBeGreaterThanOrEqual(6);
    for (const secret of [secrets.password, secrets.clientSecret, secrets.accessToken, secrets.refreshToken, secrets.basic]) {
      expect(everything).not.toContain(secret);
    }
    expect(everything).not.toMatch(/authorization|bearer/i);
  });
});

/** Sends every kind of secret the service accepts, in every place it accepts it, including failures. */
async function exerciseEverySecret(testApp: TestApp) {
  const server = testApp.app.getHttpServer();
  const client = await createClient(testApp.app);
  const user = await createUser(testApp.app, { password: 'pest-control-secret-passphrase' });
  const basic = Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64');
  const form = { grant_type: 'password', username: user.username, password: user.password };

  const granted = await request(server).post(TOKEN_PATH).set('Authorization', `Basic ${basic}`).type('form').send(form).expect(200);
  await request(server)
    .post(TOKEN_PATH)
    .type('form')
    .send({ ...form, client_id: client.clientId, client_secret: client.clientSecret, password: `${user.password}-wrong` })
    .expect(400);
  const refreshed = await request(server)
    .post(TOKEN_PATH)
    .type('form')
    .send({ grant_type: 'refresh_token', client_id: client.clientId, client_secret: client.clientSecret, refresh_token: granted.body.refresh_token })
    .expect(200);
  await request(server)
    .post(RECORD_PATH)
    .set('Authorization', `Bearer ${refreshed.body.access_token}`)
    .set('Content-Type', 'application/hal+json')
    .send(JSON.stringify(sensorReportStub.complete))
    .expect(201);
  await request(server).post(RECORD_PATH).set('Authorization', `Bearer ${refreshed.body.access_token}x`).send('{}').expect(403);
  await request(server).get('/node/1').set('Authorization', `bearer ${granted.body.access_token}`).expect((response) => expect(response.status).toBeLessThan(500));

  return {
    uid: user.uid,
    password: user.password,
    clientSecret: client.clientSecret,
    accessToken: refreshed.body.access_token as string,
    refreshToken: refreshed.body.refresh_token as string,
    basic,
  };
}
