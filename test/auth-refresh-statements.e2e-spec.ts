import { jest } from '@jest/globals';
import request from 'supertest';
import { RefreshTokensService } from '../src/auth/tokens/refresh-tokens.service.js';
import { createClient, createUser, obtainTokens, TOKEN_PATH, type TestClient, type TokenPair } from './utils/auth-fixtures.js';
import { testEngine } from './utils/engine.js';
import { statementKind, statementsDuring } from './utils/record-statements.js';
import { createTestApp, type TestApp } from './utils/test-app.js';

/** What a refresh grant asks of the database: the fewest statements that keep the rotation's guarantees. */
describe('Token endpoint: the statements of a refresh grant', () => {
  let testApp: TestApp;
  let client: TestClient;
  let pair: TokenPair;

  const refresh = (refreshToken: string) =>
    request(testApp.app.getHttpServer()).post(TOKEN_PATH).type('form').send({
      grant_type: 'refresh_token',
      client_id: client.clientId,
      client_secret: client.clientSecret,
      refresh_token: refreshToken,
    });
  /** Statements on the token and user tables (the client's row is cached for a few seconds, so it may or may not be read). */
  const grantStatements = async (refreshToken: string) =>
    (await statementsDuring(testApp.dataSource, () => refresh(refreshToken).expect(200))).filter((sql) => !/oauth_clients/.test(sql));

  beforeAll(async () => {
    testApp = await createTestApp();
  });

  beforeEach(async () => {
    await testApp.reset();
    client = await createClient(testApp.app);
    pair = await obtainTokens(testApp.app, client, await createUser(testApp.app));
  });

  afterEach(() => {
    jest.restoreAllMocks();
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('reads the token with its user, stores the new pair, then takes the used token: four statements', async () => {
    const statements = await grantStatements(pair.refresh_token);

    const work = statements.map(statementKind).filter((kind) => kind !== 'BEGIN' && kind !== 'COMMIT');
    expect(work).toEqual(['SELECT', 'INSERT', 'INSERT', 'UPDATE']);
    expect(statements.filter((sql) => /^\s*UPDATE/i.test(sql))).toEqual([expect.stringMatching(/oauth_refresh_tokens[\s\S]*revoked = 0/i)]);
  });

  it('sends no transaction of its own on MySQL, where each statement commits as it runs; on SQLite it waits its turn as one', async () => {
    const statements = await grantStatements(pair.refresh_token);

    const control = statements.map(statementKind).filter((kind) => kind === 'BEGIN' || kind === 'COMMIT');
    expect(control).toEqual(testEngine === 'mysql' ? [] : ['BEGIN', 'COMMIT']);
  });

  it('leaves the used token valid when the new pair cannot be stored, so the retry is granted', async () => {
    const connectionLost = Object.assign(new Error('Connection lost: The server closed the connection.'), {
      code: 'PROTOCOL_CONNECTION_LOST',
    });
    jest.spyOn(testApp.app.get(RefreshTokensService), 'issue').mockRejectedValueOnce(connectionLost);

    await refresh(pair.refresh_token).expect(503);

    const retried = await refresh(pair.refresh_token).expect(200);
    expect(retried.body.refresh_token).toEqual(expect.any(String));
  });
});
