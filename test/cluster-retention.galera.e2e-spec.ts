import { RETENTION_LEASE, RetentionService } from '../src/retention/retention.service.js';
import { ingestCaller } from './utils/auth-fixtures.js';
import { FakeClock } from './utils/fake-clock.js';
import { closeInstances, rowsOnEachNode, startInstances, type ClusterInstance } from './utils/galera.js';
import { report, reportBody } from './utils/read-side.js';
import { submitBatch } from './utils/sensor-record-api.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Retention on a Galera cluster (docs/operations.md#retention): the three instances, one per node, check
 * at the same moment while a fourth stream of reports goes on; one purges, the lease a row the cluster
 * certifies, and every node ends with exactly the records kept.
 */
describe('Retention on a Galera cluster, one instance per node', () => {
  const clock = new FakeClock();
  const settings = { RECORD_RETENTION_DAYS: '30', ACCESS_TOKEN_TTL: String((100 * DAY_MS) / 1000) };
  const saved = Object.fromEntries(Object.keys(settings).map((name) => [name, process.env[name]]));
  let instances: ClusterInstance[];

  beforeAll(async () => {
    Object.assign(process.env, settings);
    instances = await startInstances({ override: clock.install });
  }, 120_000);

  afterAll(async () => {
    await closeInstances(instances);
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it('deletes the old records once, on one instance, while reports keep coming', async () => {
    const [first, , third] = instances.map((instance) => instance.app.app);
    await instances[0]!.app.reset();
    const owner = await ingestCaller(first!);
    const reports = Array.from({ length: 600 }, (_, index) => reportBody({ dev_id: `trap-${index % 5}` }));
    for (let i = 0; i < 2; i++) await submitBatch(first!, reports, { token: owner.accessToken }).expect(201);
    clock.advance(31 * DAY_MS);

    let writing = true;
    const stream = (async () => {
      const stored: number[] = [];
      while (writing || stored.length < 10) stored.push(await report(third!, owner.accessToken, { dev_id: 'trap-new' }));
      return stored;
    })();
    const runs = await Promise.all(instances.map((instance) => instance.app.app.get(RetentionService).check()));
    writing = false;
    const kept = await stream;

    expect(runs.reduce((sum, run) => sum + (run.records ?? 0), 0)).toBe(1200);
    expect(runs.filter((run) => (run.records ?? 0) > 0)).toHaveLength(1);
    for (const rows of await rowsOnEachNode<{ nid: number }>('SELECT nid FROM sensor_report ORDER BY nid')) {
      expect(rows.map((row) => Number(row.nid))).toEqual(kept);
    }
    for (const rows of await rowsOnEachNode('SELECT holder FROM leases WHERE name = ?', [RETENTION_LEASE])) expect(rows).toEqual([]);
  }, 180_000);
});
