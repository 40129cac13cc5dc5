import { createConnection, type Connection } from 'mysql2/promise';
import request from 'supertest';
import { closeInstances, startInstances, type ClusterInstance } from './utils/galera.js';
import { until } from './utils/until.js';

/**
 * Readiness on a Galera cluster (`npm run test:galera`): a node that answers queries is not thereby in
 * step with the cluster. A node taken out of flow control (wsrep_desync, as a donor or a backup does)
 * falls behind and says so (wsrep_local_state_comment); its instance reports not ready until it is
 * Synced again, while the other instances stay ready.
 */
describe('Readiness on a Galera cluster, one instance per node', () => {
  let instances: ClusterInstance[];
  let third: Connection;

  const readiness = () => Promise.all(instances.map((instance) => request(instance.server).get('/health/ready')));
  /**
   * The third node leaves Donor/Desynced once it has applied what it received meanwhile: at once on a
   * quiet cluster, later on a busy machine.
   */
  const thirdSynced = () =>
    until(async () => {
      const [rows] = await third.query("SHOW GLOBAL STATUS LIKE 'wsrep_local_state_comment'");
      return (rows as Array<{ Value: string }>)[0]?.Value === 'Synced';
    });

  beforeAll(async () => {
    instances = await startInstances();
    third = await createConnection({ uri: instances[2]!.url });
  }, 120_000);

  afterAll(async () => {
    await third?.query('SET GLOBAL wsrep_desync = OFF');
    await third?.end();
    await closeInstances(instances);
  });

  it('is ready on every instance while every node is Synced', async () => {
    const answers = await readiness();

    expect(answers.map((answer) => [answer.status, answer.body.info?.database?.status])).toEqual([
      [200, 'up'],
      [200, 'up'],
      [200, 'up'],
    ]);
  });

  it('is not ready on the instance whose node is desynced, and ready again once it is Synced', async () => {
    await third.query('SET GLOBAL wsrep_desync = ON');
    const desynced = await readiness();
    await third.query('SET GLOBAL wsrep_desync = OFF');

    expect(desynced.map((answer) => answer.status)).toEqual([200, 200, 503]);
    expect(desynced[2]!.body).toMatchObject({
      message: 'Not ready: database is down.',
      error: { database: { status: 'down', message: 'The Galera node is Donor/Desynced, not Synced' } },
    });
    await thirdSynced();
    expect((await readiness()).map((answer) => answer.status)).toEqual([200, 200, 200]);
  });
});
