import request from 'supertest';
import { setTimeout as delay } from 'node:timers/promises';
import { runInTransaction } from '../src/database/run-in-transaction.js';
import { createClient, createUser, obtainTokens, TOKEN_PATH, type TestClient, type TestUser } from './utils/auth-fixtures.js';
import { describeOn } from './utils/engine.js';
import { createTestApp, type TestApp } from './utils/test-app.js';

const UNAVAILABLE = 'The database is temporarily unavailable; nothing was stored. Please retry.';
/** Far beyond the grants' database time: only a grant that waited without bound is answered after it. */
const HELD_AT_MOST_MS = 20_000;

/**
 * On SQLite the service's transactions take turns on its one connection. A transaction run outside any
 * request (a background round, the command line) may hold its turn for long, waiting without a deadline
 * for another process's write lock on the file; a grant queued behind it waits at most
 * DB_REQUEST_TIMEOUT_MS, as a submission does, and is answered 503 then
 * (docs/interface.md#when-the-database-is-away-or-slow). Here the turn is held until the grant is
 * answered, so a grant that waited without bound would be answered only when it ends.
 */
describeOn('sqlite', 'Token endpoint behind a transaction holding the SQLite file', () => {
  let testApp: TestApp;
  let client: TestClient;
  let user: TestUser;

  beforeAll(async () => {
    testApp = await createTestApp({ env: { DB_REQUEST_TIMEOUT_MS: '1000' } });
    await testApp.reset();
    client = await createClient(testApp.app);
    user = await createUser(testApp.app);
  });

  afterAll(async () => {
    await testApp?.close();
  });

  /** Sends the grant while a transaction outside any request holds the file's turn; the turn ends once the grant is answered. */
  const behindHeldTurn = async (form: Record<string, string>) => {
    let answered!: () => void;
    const grantAnswered = new Promise<void>((resolve) => (answered = resolve));
    const held = runInTransaction(testApp.dataSource, () => Promise.race([grantAnswered, delay(HELD_AT_MOST_MS)]));
    try {
      return await request(testApp.app.getHttpServer())
        .post(TOKEN_PATH)
        .type('form')
        .send({ client_id: client.clientId, client_secret: client.clientSecret, ...form });
    } finally {
      answered();
      await held;
    }
  };

  const expectUnavailable = (answer: request.Response) =>
    expect({ status: answer.status, body: answer.body, retryAfter: answer.headers['retry-after'] }).toEqual({
      status: 503,
      body: { message: UNAVAILABLE },
      retryAfter: '5',
    });

  it('answers a refresh grant 503 at its deadline, and the token still works afterwards', async () => {
    const pair = await obtainTokens(testApp.app, client, user);

    expectUnavailable(await behindHeldTurn({ grant_type: 'refresh_token', refresh_token: pair.refresh_token }));

    await request(testApp.app.getHttpServer())
      .post(TOKEN_PATH)
      .type('form')
      .send({
        grant_type: 'refresh_token',
        refresh_token: pair.refresh_token,
        client_id: client.clientId,
        client_secret: client.clientSecret,
      })
      .expect(200);
  }, 60_000);

  it('answers a password grant 503 at its deadline, and counts nothing', async () => {
    expectUnavailable(await behindHeldTurn({ grant_type: 'password', username: user.username, password: user.password }));

    expect(await testApp.dataSource.query('SELECT * FROM login_failures')).toEqual([]);
    await request(testApp.app.getHttpServer())
      .post(TOKEN_PATH)
      .type('form')
      .send({
        grant_type: 'password',
        username: user.username,
        password: user.password,
        client_id: client.clientId,
        client_secret: client.clientSecret,
      })
      .expect(200);
  }, 60_000);
});
