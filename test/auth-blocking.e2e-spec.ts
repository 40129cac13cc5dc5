import { TOKEN_STATE_CACHE_MS } from '../src/auth/bearer/token-state.service.js';
import { ClientsService } from '../src/auth/clients/clients.service.js';
import { UsersService } from '../src/auth/users/users.service.js';
import { runCommand } from '../src/cli/commands.js';
import { submissionFrom, submissionStub } from './fixtures/submission.stub.js';
import { FORBIDDEN_CREATE } from './fixtures/oauth-errors.stub.js';
import { ingestCaller } from './utils/auth-fixtures.js';
import { FakeClock } from './utils/fake-clock.js';
import { storedRows, submit } from './utils/sensor-record-api.js';
import { createTestApp, type TestApp } from './utils/test-app.js';

/**
 * Blocking a device's user stops its submissions within 5 seconds, even though each instance caches a
 * token's state: the clock the cache reads is moved instead of waited for.
 */
describe('Blocking a user while its token is in use', () => {
  const clock = new FakeClock();
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp({ override: clock.install });
  });

  beforeEach(async () => {
    await testApp.reset();
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('refuses the next submission once the cached state has aged, less than 5 seconds after the block', async () => {
    const caller = await ingestCaller(testApp.app);
    const post = () => submit(testApp.app, submissionFrom(submissionStub.trapSprung), { token: caller.accessToken, format: 'json' });
    await post().expect(201);

    await runCommand(['user:block', '--username', caller.username], {
      users: testApp.app.get(UsersService),
      clients: testApp.app.get(ClientsService),
    });
    // Within the cache's time the state cached by the first submission still stands: the cache is warm.
    clock.advance(TOKEN_STATE_CACHE_MS - 1);
    await post().expect(201);
    clock.advance(1);
    const refused = await post().expect(403);

    expect(refused.body).toEqual(FORBIDDEN_CREATE);
    expect(TOKEN_STATE_CACHE_MS).toBeLessThan(5000);
    expect(await storedRows(testApp.dataSource)).toHaveLength(2);
  });

  it('lets the same access token submit again after user:unblock, once the cached state has aged', async () => {
    const caller = await ingestCaller(testApp.app);
    const post = () => submit(testApp.app, submissionFrom(submissionStub.trapSprung), { token: caller.accessToken, format: 'json' });
    const services = { users: testApp.app.get(UsersService), clients: testApp.app.get(ClientsService) };
    await runCommand(['user:block', '--username', caller.username], services);
    clock.advance(TOKEN_STATE_CACHE_MS);
    await post().expect(403, FORBIDDEN_CREATE);

    await runCommand(['user:unblock', '--username', caller.username], services);
    clock.advance(TOKEN_STATE_CACHE_MS);
    const created = await post().expect(201);

    expect(await storedRows(testApp.dataSource)).toEqual([expect.objectContaining({ nid: created.body.nid[0].value, uid: caller.uid })]);
  });
});
