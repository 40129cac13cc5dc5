import { jest } from '@jest/globals';
import request from 'supertest';
import { SigningKeysService } from '../src/auth/keys/signing-keys.service.js';
import { sha256 } from '../src/common/crypto/sha256.js';
import { RefreshTokensService } from '../src/auth/tokens/refresh-tokens.service.js';
import { AccessTokenEntity } from '../src/auth/tokens/access-token.entity.js';
import { RefreshTokenEntity } from '../src/auth/tokens/refresh-token.entity.js';
import { createClient, createUser, obtainTokens, TOKEN_PATH, type TestClient, type TokenPair } from './utils/auth-fixtures.js';
import { testEngine } from './utils/engine.js';
import { statementKind, statementsDuring } from './utils/record-statements.js';
import { createTestApp, type TestApp } from './utils/test-app.js';

/** What a refresh grant asks of the database: the fewest statements and round trips that keep the rotation's guarantees. */
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
  /** The grant's statements but the client's row (cached for a few seconds, so read or not); what the service's timers send meanwhile is never the grant's. */
  const grantStatements = async (refreshToken: string) =>
    (await statementsDuring(testApp, () => refresh(refreshToken).expect(200))).filter((sql) => !/oauth_clients/.test(sql));

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

  it('stores the new pair, takes the used token, then reads it with its user: four statements', async () => {
    const statements = (await grantStatements(pair.refresh_token)).flatMap((sql) => sql.split(/;\s*/));

    const work = statements.map(statementKind).filter((kind) => kind !== 'BEGIN' && kind !== 'COMMIT');
    expect(work).toEqual(['INSERT', 'INSERT', 'UPDATE', 'SELECT']);
    expect(statements.filter((sql) => /^\s*UPDATE/i.test(sql))).toEqual([expect.stringMatching(/oauth_refresh_tokens[\s\S]*revoked = 0/i)]);
  });

  it('sends them together on MySQL: one round trip', async () => {
    const statements = await grantStatements(pair.refresh_token);

    const sent = statements.filter((sql) => !['BEGIN', 'COMMIT'].includes(statementKind(sql)));
    expect(sent.map(statementKind)).toEqual(testEngine === 'mysql' ? ['INSERT'] : ['INSERT', 'INSERT', 'UPDATE', 'SELECT']);
  });

  it('sends no transaction of its own on MySQL, where each statement commits as it runs; on SQLite it waits its turn as one', async () => {
    const statements = await grantStatements(pair.refresh_token);

    const control = statements.map(statementKind).filter((kind) => kind === 'BEGIN' || kind === 'COMMIT');
    expect(control).toEqual(testEngine === 'mysql' ? [] : ['BEGIN', 'COMMIT']);
  });

  it("stores no row for a token it refuses (another client's, expired, of a blocked user)", async () => {
    const other = await createClient(testApp.app);
    const rows = () =>
      Promise.all([
        testApp.dataSource.getRepository(AccessTokenEntity).count(),
        testApp.dataSource.getRepository(RefreshTokenEntity).count(),
      ]);
    const before = await rows();

    await request(testApp.app.getHttpServer())
      .post(TOKEN_PATH)
      .type('form')
      .send({
        grant_type: 'refresh_token',
        client_id: other.clientId,
        client_secret: other.clientSecret,
        refresh_token: pair.refresh_token,
      })
      .expect(400);
    await testApp.dataSource
      .getRepository(RefreshTokenEntity)
      .update({ tokenHash: sha256(pair.refresh_token) }, { expiresAt: new Date(Date.now() - 1000) });
    await refresh(pair.refresh_token).expect(400);

    expect(await rows()).toEqual(before);
  });

  it('counts the statements of the grant only, not those of a reading of the signing keys meanwhile', async () => {
    const keys = testApp.app.get(SigningKeysService);

    const statements = await statementsDuring(testApp, () => Promise.all([refresh(pair.refresh_token).expect(200), keys.refresh()]));

    expect(statements.filter((sql) => /signing_keys/.test(sql))).toEqual([]);
  });

  it('leaves the used token valid when the server refuses to store the new pair, so the retry is granted', async () => {
    const refreshTokens = testApp.app.get(RefreshTokensService);
    const issue = refreshTokens.issueBesideAccess.bind(refreshTokens);
    // A new refresh token whose digest is already stored (the used token's): the server refuses its INSERT,
    // and must then not run the UPDATE sent after it.
    jest.spyOn(refreshTokens, 'issueBesideAccess').mockImplementationOnce((...args) => {
      const issued = issue(...args);
      return { ...issued, record: { ...issued.record, parameters: [sha256(pair.refresh_token), ...issued.record.parameters.slice(1)] } };
    });

    await refresh(pair.refresh_token).expect(500);

    const retried = await refresh(pair.refresh_token).expect(200);
    expect(retried.body.refresh_token).toEqual(expect.any(String));
  });
});
