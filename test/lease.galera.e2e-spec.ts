import type { DataSource } from 'typeorm';
import { loadConfig } from '../src/config/app-config.js';
import { buildDataSourceOptions } from '../src/database/data-source-options.js';
import { quietDatabaseLogger } from '../src/database/database-logger.js';
import { initializeDataSource } from '../src/database/initialize-data-source.js';
import { withLeaseIfFree } from '../src/database/lease.js';
import { galeraUrls, rowsOnEachNode } from './utils/galera.js';

const ROUNDS = 30;

/**
 * A named lease (src/database/lease.ts) asked for on the three nodes of a Galera cluster at the same
 * moment, round after round. A named lock (GET_LOCK) would be granted on every node at once; the lease
 * is a row the cluster certifies, so at most one of the three holds it at any moment.
 */
describe('A named lease on a Galera cluster, asked for on every node at once', () => {
  let nodes: DataSource[];
  const name = `galera-lease-${process.pid}`;

  beforeAll(async () => {
    nodes = [];
    for (const url of galeraUrls()) {
      const options = buildDataSourceOptions(loadConfig({ ...process.env, DATABASE_URL: url }).database);
      nodes.push(await initializeDataSource({ ...options, logger: quietDatabaseLogger }));
    }
  }, 60_000);

  afterAll(async () => {
    for (const node of nodes ?? []) await node.destroy();
  });

  it('is never held on two nodes at once, and is taken in some rounds', async () => {
    let holding = 0;
    let mostAtOnce = 0;
    const taken: number[] = [0, 0, 0];

    await Promise.all(
      nodes.map(async (node, index) => {
        for (let round = 0; round < ROUNDS; round++) {
          const ran = await withLeaseIfFree(node, name, async () => {
            holding++;
            mostAtOnce = Math.max(mostAtOnce, holding);
            // Hold it across a round trip to the node, so that the others' attempts meet it.
            await node.query('SELECT 1');
            holding--;
          });
          if (ran.held) taken[index]!++;
        }
      }),
    );

    expect(mostAtOnce).toBe(1);
    expect(taken.reduce((sum, count) => sum + count)).toBeGreaterThan(0);
    for (const rows of await rowsOnEachNode('SELECT holder FROM leases WHERE name = ?', [name])) expect(rows).toEqual([]);
  }, 120_000);
});
