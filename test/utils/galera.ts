import type { Server } from 'node:http';
import { createConnection } from 'mysql2/promise';
import { createTestApp, type TestApp, type TestAppOptions } from './test-app.js';
import { until } from './until.js';

/**
 * The three nodes' database URLs, as `npm run test:galera` passes them (`scripts/galera-cluster.sh env`).
 * The suites that use them run only in that script (jest.config.js).
 */
export function galeraUrls(): [string, string, string] {
  const urls = process.env.GALERA_URLS?.split(',') ?? [];
  if (urls.length !== 3) throw new Error('GALERA_URLS must name the three nodes of the cluster; run the suite with npm run test:galera');
  return urls as [string, string, string];
}

/** An instance of the service whose pool connects to one node only. */
export interface ClusterInstance {
  node: number;
  url: string;
  app: TestApp;
  server: Server;
}

/**
 * One instance per node, each with its own pool and listening on a port of its own, built one after
 * another (the first applies the migrations).
 */
export async function startInstances(options: TestAppOptions = {}): Promise<ClusterInstance[]> {
  const saved = process.env.DATABASE_URL;
  const instances: ClusterInstance[] = [];
  try {
    for (const [index, url] of galeraUrls().entries()) {
      process.env.DATABASE_URL = url;
      const app = await createTestApp(options);
      instances.push({ node: index + 1, url, app, server: await app.app.listen(0, '127.0.0.1') });
    }
  } finally {
    process.env.DATABASE_URL = saved;
  }
  return instances;
}

export async function closeInstances(instances: ClusterInstance[] | undefined): Promise<void> {
  for (const instance of instances ?? []) await instance.app.close();
}

/**
 * The rows `sql` reads on each node, asked on a connection of its own that first waits for the node to
 * have applied everything the cluster committed before the query (wsrep_sync_wait): what each node
 * holds, not how far its replication has got.
 */
export async function rowsOnEachNode<T>(sql: string, parameters: unknown[] = [], urls: string[] = galeraUrls()): Promise<T[][]> {
  return Promise.all(
    urls.map(async (url) => {
      const connection = await createConnection({ uri: url, connectTimeout: 5000 });
      try {
        await connection.query('SET SESSION wsrep_sync_wait = 1');
        const [rows] = await connection.query(sql, parameters);
        return rows as T[];
      } finally {
        await connection.end();
      }
    }),
  );
}

/**
 * Resolves once every node has the database `name`. A CREATE DATABASE returns once the node that ran it
 * has done so; the other nodes apply it in the cluster's order a moment later, so an instance connecting
 * to another node at once may not find it yet. Each look is a causal read (wsrep_sync_wait): a node
 * that has not yet applied a DROP of the same name sent just before would still show the old database.
 */
export async function untilDatabaseOnEachNode(name: string, urls: string[] = galeraUrls()): Promise<void> {
  for (const url of urls) {
    const server = new URL(url);
    server.pathname = '/';
    const connection = await createConnection({ uri: server.toString(), connectTimeout: 5000 });
    try {
      await connection.query('SET SESSION wsrep_sync_wait = 1');
      await until(async () => {
        const [rows] = await connection.query('SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?', [name]);
        return (rows as unknown[]).length === 1;
      });
    } finally {
      await connection.end();
    }
  }
}
