import { jest } from '@jest/globals';
import request from 'supertest';
import type { EntitySubscriberInterface } from 'typeorm';
import { SigningKeysService } from '../src/auth/keys/signing-keys.service.js';
import { sha256 } from '../src/common/crypto/sha256.js';
import { RefreshTokensService } from '../src/auth/tokens/refresh-tokens.service.js';
import { AccessTokenEntity } from '../src/auth/tokens/access-token.entity.js';
import { RefreshTokenEntity } from '../src/auth/tokens/refresh-token.entity.js';
import {
  createClient,
  createUser,
  obtainTokens,
  TOKEN_PATH,
  type TestClient,
  type TestUser,
  type TokenPair,
} from './utils/auth-fixtures.js';
import { describeOn, testEngine } from './utils/engine.js';
import { statementKind, statementsDuring } from './utils/record-statements.js';
import { oauthErrorStub } from './fixtures/oauth-errors.stub.js';
import { createTestApp, type TestApp } from './utils/test-app.js';

/** What a refresh grant asks of the database: the fewest statements and round trips that keep the rotation's guarantees. */
describe('Token endpoint: the statements of a refresh grant', () => {
  let testApp: TestApp;
  let client: TestClient;
  let user: TestUser;
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

  const setUserStatus = (status: 0 | 1) => testApp.dataSource.query('UPDATE users SET status = ? WHERE uid = ?', [status, user.uid]);

  /**
   * Runs `grant` (a refresh grant) and commits the user's unblocking after its writes and before its
   * read, once (or in every run of its statements, the user blocked again before each): on SQLite, where
   * the grant is one transaction on the one shared connection, just before its UPDATE.
   */
  async function unblockingBetweenWritesAndRead<T>(grant: () => PromiseLike<T>, { everyRun = false } = {}): Promise<T> {
    let unblocked = 0;
    const unblock: EntitySubscriberInterface = {
      beforeQuery: async (event) => {
        const sql = event.query.trim();
        // Every run: blocked again before its writes.
        if (everyRun && sql.startsWith('INSERT INTO oauth_access_tokens')) {
          await event.queryRunner!.query('UPDATE users SET status = 0 WHERE uid = ?', [user.uid]);
        }
        if ((unblocked > 0 && !everyRun) || !sql.startsWith('UPDATE oauth_refresh_tokens SET revoked = 1')) return;
        unblocked++;
        await event.queryRunner!.query('UPDATE users SET status = 1 WHERE uid = ?', [user.uid]);
      },
    };
    testApp.dataSource.subscribers.push(unblock);
    try {
      const answer = await grant();
      expect(unblocked).toBe(everyRun ? 3 : 1);
      return answer;
    } finally {
      testApp.dataSource.subscribers.splice(testApp.dataSource.subscribers.indexOf(unblock), 1);
    }
  }

  beforeAll(async () => {
    testApp = await createTestApp();
  });

  beforeEach(async () => {
    await testApp.reset();
    client = await createClient(testApp.app);
    user = await createUser(testApp.app);
    pair = await obtainTokens(testApp.app, client, user);
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

  // On MySQL the four statements go in one round trip with no wait between the writes and the read, so
  // nothing can commit at a chosen point between them; the Galera suite (cluster-tokens) meets it there.
  describeOn('sqlite', 'when the writes found the token unusable and the read after them finds it usable', () => {
    it('runs the statements again, and grants the refresh', async () => {
      // The writes see the user blocked; the read, the user active. On Galera this is a token (or its
      // user) written through another node a moment before, applied on this node after the writes and
      // before the read, which alone waits for the cluster (wsrep_sync_wait); here the user is unblocked
      // in between.
      await setUserStatus(0);

      const answer = await unblockingBetweenWritesAndRead(() => refresh(pair.refresh_token));

      expect(answer.status).toBe(200);
      expect(answer.body.refresh_token).toEqual(expect.any(String));
      // It took the token: presented again, it is a reused one.
      expect((await refresh(pair.refresh_token).expect(400)).body).toEqual(oauthErrorStub.invalidRefreshToken('Token has been revoked'));
    });

    it('answers 503 when they disagree in each of three runs, having stored nothing and left the token unused', async () => {
      await setUserStatus(0);
      const rows = () =>
        Promise.all([
          testApp.dataSource.getRepository(AccessTokenEntity).count(),
          testApp.dataSource.getRepository(RefreshTokenEntity).count(),
        ]);
      const before = await rows();

      const answer = await unblockingBetweenWritesAndRead(() => refresh(pair.refresh_token), { everyRun: true });

      expect(answer.status).toBe(503);
      expect(await rows()).toEqual(before);
      await refresh(pair.refresh_token).expect(200);
    });
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
