import type { EntityManager } from 'typeorm';
import { rowsChanged } from './plain-sql.js';

/** A plain SQL write with its `?` values. */
export interface Statement {
  sql: string;
  parameters: unknown[];
}

interface WriteResult {
  affectedRows?: number;
}

/**
 * Sends writes in order and answers how many rows each changed. On MySQL they go in one round trip, as
 * one multi-statement query (`multipleStatements`, data-source-options.ts): each statement commits as it
 * runs, as if sent alone, and the server stops at the first that fails, so a failure leaves the ones
 * before it applied and none after it, as separate round trips would. On SQLite, in-process, they run
 * one after another on the manager's connection.
 */
export async function sendTogether(manager: EntityManager, statements: readonly Statement[]): Promise<number[]> {
  if (manager.connection.options.type !== 'mysql') {
    const changed: number[] = [];
    for (const { sql, parameters } of statements) changed.push(await rowsChanged(manager, sql, parameters));
    return changed;
  }
  const sql = statements.map((statement) => statement.sql).join(';\n');
  const raw = (await manager.query(
    sql,
    statements.flatMap((statement) => statement.parameters),
  )) as WriteResult | WriteResult[];
  // mysql2 answers a list of results for several statements, the result itself for one.
  const results = statements.length === 1 ? [raw as WriteResult] : (raw as WriteResult[]);
  return results.map((result) => result.affectedRows ?? 0);
}
