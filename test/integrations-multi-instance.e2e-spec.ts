import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IntegrationsService } from '../src/integrations/admin/integrations.service.js';
import { INTEGRATION_KEY_CACHE_MS } from '../src/integrations/key/integration-key-state.service.js';
import { ttsUplinkStub } from './fixtures/tts-uplink.stub.js';
import { FakeClock } from './utils/fake-clock.js';
import { createIntegration, postTtsUplink } from './utils/integration-api.js';
import { storedRows } from './utils/sensor-record-api.js';
import { createTestApp, type TestApp } from './utils/test-app.js';

/**
 * Two instances, each listening on its own port with its own connection pool and its own key cache,
 * on one database (MariaDB in `npm run test:mysql`; a SQLite file otherwise), as
 * test/multi-instance.e2e-spec.ts runs them. The clock both caches read is moved, not waited for.
 */
describe('Integrations on several instances sharing one database', () => {
  const saved = { ...process.env };
  const clock = new FakeClock();
  let sqliteDirectory: string | undefined;
  let first: TestApp;
  let second: TestApp;
  let servers: [Server, Server];

  let counter = 0;
  /** The uplink under a new frame counter, so that each post is a new uplink. */
  const newUplink = () => {
    const uplink = structuredClone(ttsUplinkStub.threeGateways);
    uplink.uplink_message.f_cnt = 9000 + ++counter;
    return uplink;
  };

  beforeAll(async () => {
    if (!process.env.DATABASE_URL?.startsWith('mysql://')) {
      sqliteDirectory = mkdtempSync(join(tmpdir(), 'sensor-records-integrations-'));
      process.env.DATABASE_URL = `sqlite:${join(sqliteDirectory, 'shared.sqlite')}`;
    }
    first = await createTestApp({ override: clock.install });
    second = await createTestApp({ override: clock.install });
    servers = [await first.app.listen(0, '127.0.0.1'), await second.app.listen(0, '127.0.0.1')];
  });

  beforeEach(async () => {
    await first.reset();
  });

  afterAll(async () => {
    await first.close();
    await second.close();
    process.env = { ...saved };
    if (sqliteDirectory) rmSync(sqliteDirectory, { recursive: true, force: true });
  });

  it('accepts on one instance a key created through the other', async () => {
    const integration = await createIntegration(first.app, { network: 'tts' });

    await postTtsUplink(servers[1], newUplink(), integration.apiKey).expect(201);
    await postTtsUplink(servers[0], newUplink(), integration.apiKey).expect(201);
  });

  it('refuses a key revoked through one instance on both, less than 5 seconds later', async () => {
    const integration = await createIntegration(first.app, { network: 'tts' });
    for (const server of servers) await postTtsUplink(server, newUplink(), integration.apiKey).expect(201);

    await second.app.get(IntegrationsService).revoke(integration.integrationId);
    clock.advance(INTEGRATION_KEY_CACHE_MS - 1);
    // Each instance still answers from the state it cached a moment ago...
    for (const server of servers) await postTtsUplink(server, newUplink(), integration.apiKey).expect(201);
    clock.advance(1);

    // ...and no longer once it has aged.
    for (const server of servers) await postTtsUplink(server, newUplink(), integration.apiKey).expect(401);
    expect(INTEGRATION_KEY_CACHE_MS).toBeLessThan(5000);
  });

  it('stores one row for 20 copies of an uplink posted to both at once, answering each with a 2xx and that record', async () => {
    const integration = await createIntegration(first.app, { network: 'tts' });
    const uplink = newUplink();

    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => postTtsUplink(servers[i % 2]!, uplink, integration.apiKey)));

    const rows = await storedRows(first.dataSource);
    expect(rows).toHaveLength(1);
    expect(answers.map((answer) => answer.status).filter((status) => status === 201)).toHaveLength(1);
    expect(answers.map((answer) => answer.status).filter((status) => status === 200)).toHaveLength(19);
    expect(new Set(answers.map((answer) => (answer.body as { nid: [{ value: number }] }).nid[0].value))).toEqual(new Set([rows[0]!.nid]));
  });
});
