type ConnectionCallback = (error: Error | null, connection?: PooledConnection) => void;

/** A connection of mysql2's callback pool, as the pool wrappers (bounded-mysql2.ts, galera-session.ts) use it. */
export interface PooledConnection {
  query(sql: unknown, values?: unknown, callback?: unknown): unknown;
  /** A prepared statement: prepared once per connection and text (mysql2 keeps them), then run with binary values. */
  execute(sql: string, values: unknown[], callback: (error: (Error & { code?: string }) | null, ...results: unknown[]) => void): unknown;
  release(): void;
  destroy(): void;
  stream?: { destroy(): void };
}

/** mysql2's callback pool, as the pool wrappers use it. */
export interface Pool {
  getConnection(callback: ConnectionCallback): void;
}
