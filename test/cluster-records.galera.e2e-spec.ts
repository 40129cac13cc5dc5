import request from 'supertest';
import { submissionStub } from './fixtures/submission.stub.js';
import { ttsUplinkStub } from './fixtures/tts-uplink.stub.js';
import { ingestCaller } from './utils/auth-fixtures.js';
import { createIntegration, postTtsUplink } from './utils/integration-api.js';
import { closeInstances, rowsOnEachNode, startInstances, type ClusterInstance } from './utils/galera.js';
import { SENSOR_RECORD_URL } from './utils/sensor-record-api.js';

/**
 * Three instances, each on its own node of a three-node Galera cluster (`npm run test:galera`). Two
 * nodes accept conflicting writes that fail only at COMMIT, and a node may read before it has applied
 * what another committed; none of that may show to a device.
 */
describe('Records on a Galera cluster, one instance per node', () => {
  let instances: ClusterInstance[];
  let token: string;

  const submit = (instance: ClusterInstance, body: object) =>
    request(instance.server)
      .post(`${SENSOR_RECORD_URL}?_format=json`)
      .set('Content-Type', 'application/hal+json')
      .set('Authorization', `Bearer ${token}`)
      .send(JSON.stringify(body));
  const read = (instance: ClusterInstance, nid: number) =>
    request(instance.server).get(`/node/${nid}?_format=json`).set('Authorization', `Bearer ${token}`);
  const report = (devId: string, second: number) => {
    const body = structuredClone(submissionStub.trapSprung);
    body.dev_id = devId;
    body.metadata.time = `2026-11-24T06:00:${String(second % 60).padStart(2, '0')}Z`;
    return body;
  };
  /** The instances' count of transactions run again after a certification failure (they share one process). */
  const conflictRetries = async () => {
    const metrics = await request(instances[0]!.server).get('/metrics').expect(200);
    return Number(/^db_write_conflict_retries_total (\d+)$/m.exec(metrics.text)?.[1]);
  };
  const nidOf = (answer: request.Response) => (answer.body as { nid: [{ value: number }] }).nid[0].value;

  beforeAll(async () => {
    instances = await startInstances();
  }, 120_000);

  beforeEach(async () => {
    await instances[0]!.app.reset();
    token = (await ingestCaller(instances[0]!.app.app)).accessToken;
  });

  afterAll(async () => {
    await closeInstances(instances);
  });

  // One sensor row takes every record: the three nodes update it at once and certification lets only
  // one of each conflicting set commit; the others are retried whole.
  it('stores each of 60 reports of one sensor sent to the three instances at once, every record and count on every node', async () => {
    const retriesBefore = await conflictRetries();

    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => submit(instances[i % 3]!, report('cluster-trap', i))));

    expect(answers.map((answer) => answer.status)).toEqual(Array(60).fill(201));
    // The conflicts did happen, and were retried rather than answered.
    expect(await conflictRetries()).toBeGreaterThan(retriesBefore);
    const nids = answers.map(nidOf).sort((a, b) => a - b);
    expect(new Set(nids).size).toBe(60);
    for (const rows of await rowsOnEachNode<{ nid: number }>('SELECT nid FROM sensor_report ORDER BY nid')) {
      expect(rows.map((row) => Number(row.nid))).toEqual(nids);
    }
    for (const rows of await rowsOnEachNode<{ report_count: number }>('SELECT report_count FROM sensor WHERE dev_id = ?', [
      'cluster-trap',
    ])) {
      expect(rows.map((row) => Number(row.report_count))).toEqual([60]);
    }
  });

  it('finds a record through the other two instances the moment one has answered 201', async () => {
    for (let round = 0; round < 30; round++) {
      const writer = instances[round % 3]!;
      const created = await submit(writer, report(`read-back-${round}`, round)).expect(201);

      const readers = instances.filter((instance) => instance !== writer);
      const found = await Promise.all(readers.map((reader) => read(reader, nidOf(created))));

      expect(found.map((answer) => answer.status)).toEqual([200, 200]);
      expect(found.map(nidOf)).toEqual([nidOf(created), nidOf(created)]);
    }
  });

  it('stores one row for copies of an uplink posted to the three instances at once, answering each with that record', async () => {
    const integration = await createIntegration(instances[0]!.app.app, { network: 'tts' });
    for (let round = 0; round < 5; round++) {
      const uplink = structuredClone(ttsUplinkStub.threeGateways);
      uplink.uplink_message.f_cnt = 7000 + round;

      const answers = await Promise.all(
        Array.from({ length: 9 }, (_, i) => postTtsUplink(instances[i % 3]!.server, uplink, integration.apiKey)),
      );

      const statuses = answers.map((answer) => answer.status).sort();
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 201]);
      expect(new Set(answers.map(nidOf)).size).toBe(1);
      for (const rows of await rowsOnEachNode<{ nid: number }>('SELECT nid FROM sensor_report WHERE field_sequence = ?', [7000 + round])) {
        expect(rows.map((row) => Number(row.nid))).toEqual([nidOf(answers[0]!)]);
      }
    }
  });
});
