import type { EntityManager } from 'typeorm';
import { galeraNotReadyReason } from './galera-state.js';

/** A manager whose server reports these global variables and status values. */
const server = (values: Record<string, string>) =>
  ({
    query: async (sql: string) =>
      Object.entries(values)
        .filter(([name]) => sql.includes(`'${name}'`))
        .map(([name, value]) => ({ Variable_name: name, Value: value })),
  }) as unknown as EntityManager;

describe(galeraNotReadyReason.name, () => {
  it('has nothing against a server that is not a Galera node', async () => {
    await expect(galeraNotReadyReason(server({}))).resolves.toBeNull();
    await expect(galeraNotReadyReason(server({ wsrep_on: 'OFF', wsrep_ready: 'OFF' }))).resolves.toBeNull();
  });

  it('has nothing against a Synced, ready node', async () => {
    await expect(
      galeraNotReadyReason(server({ wsrep_on: 'ON', wsrep_ready: 'ON', wsrep_local_state_comment: 'Synced' })),
    ).resolves.toBeNull();
  });

  it('names a node that is not Synced, or not ready', async () => {
    await expect(
      galeraNotReadyReason(server({ wsrep_on: 'ON', wsrep_ready: 'ON', wsrep_local_state_comment: 'Donor/Desynced' })),
    ).resolves.toBe('The Galera node is Donor/Desynced, not Synced');
    await expect(galeraNotReadyReason(server({ wsrep_on: 'ON', wsrep_ready: 'OFF', wsrep_local_state_comment: 'Synced' }))).resolves.toBe(
      'The Galera node is not ready (wsrep_ready OFF)',
    );
  });
});
