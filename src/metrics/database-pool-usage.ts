import type { DataSource } from 'typeorm';

interface Mysql2PoolInternals {
  _allConnections?: { length: number };
  _freeConnections?: { length: number };
}

/**
 * Connections in use and idle. mysql2 keeps these counts in pool internals, read defensively;
 * the embedded SQLite driver has exactly one connection, always open.
 */
export function databasePoolUsage(dataSource: DataSource): { inUse: number; idle: number } {
  if (!dataSource.isInitialized) return { inUse: 0, idle: 0 };
  if (dataSource.options.type !== 'mysql') return { inUse: 1, idle: 0 };
  const pool = (dataSource.driver as unknown as { pool?: Mysql2PoolInternals }).pool;
  const total = pool?._allConnections?.length ?? 0;
  const idle = pool?._freeConnections?.length ?? 0;
  return { inUse: total - idle, idle };
}
