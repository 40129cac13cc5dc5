import type { EntityManager } from 'typeorm';

/**
 * Why a Galera node should take no requests, or null when it may (or the server is not a Galera
 * node). A node answers queries in states where it is not in step with the cluster: joining or
 * receiving its state, desynced as a donor, or cut off from the primary component (wsrep_ready OFF,
 * every statement then refused). Only a Synced, ready node is ready, as Galera's own clustercheck has it.
 */
export async function galeraNotReadyReason(manager: EntityManager): Promise<string | null> {
  const wsrep = await statusMap(manager, "SHOW GLOBAL VARIABLES LIKE 'wsrep_on'");
  if (wsrep.get('wsrep_on') !== 'ON') return null;
  const status = await statusMap(manager, "SHOW GLOBAL STATUS WHERE Variable_name IN ('wsrep_ready', 'wsrep_local_state_comment')");
  if (status.get('wsrep_ready') !== 'ON') return 'The Galera node is not ready (wsrep_ready OFF)';
  const state = status.get('wsrep_local_state_comment') ?? 'unknown';
  return state === 'Synced' ? null : `The Galera node is ${state}, not Synced`;
}

async function statusMap(manager: EntityManager, sql: string): Promise<Map<string, string>> {
  const rows: Array<{ Variable_name: string; Value: string }> = await manager.query(sql);
  return new Map(rows.map((row) => [row.Variable_name, String(row.Value).toUpperCase() === 'ON' ? 'ON' : String(row.Value)]));
}
