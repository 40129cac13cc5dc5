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
  const results = (await queryTogether(manager, statements)) as WriteResult[];
  return results.map((result) => result.affectedRows ?? 0);
}

/**
 * Writes, then a read that sees them: how many rows each write changed, and the read's rows. On MySQL
 * all in one round trip, as sendTogether's writes (a write that fails stops the rest, the read too);
 * on SQLite one after another.
 */
export async function sendThenRead<R>(
  manager: EntityManager,
  writes: readonly Statement[],
  read: Statement,
): Promise<{ changed: number[]; rows: R[] }> {
  if (manager.connection.options.type !== 'mysql') {
    const changed = await sendTogether(manager, writes);
    return { changed, rows: (await manager.query(read.sql, read.parameters)) as R[] };
  }
  const results = await queryTogether(manager, [...writes, read]);
  return { changed: (results.slice(0, -1) as WriteResult[]).map((result) => result.affectedRows ?? 0), rows: results.at(-1) as R[] };
}

/**
 * Runs statements in order and answers each one's result as `manager.query` gives it (a SELECT's rows).
 * On MySQL they go in one round trip, as sendTogether's do; on SQLite one after another.
 */
export async function queryTogether(manager: EntityManager, statements: readonly Statement[]): Promise<unknown[]> {
  if (manager.connection.options.type !== 'mysql') return queryInTurn(manager, statements);
  const raw: unknown = await manager.query(
    statements.map((statement) => statement.sql).join(';\n'),
    statements.flatMap((statement) => statement.parameters),
  );
  // mysql2 answers a list of results for several statements, the result itself for one.
  return statements.length === 1 ? [raw] : (raw as unknown[]);
}

/** As queryTogether, but each statement in a round trip of its own. */
export async function queryInTurn(manager: EntityManager, statements: readonly Statement[]): Promise<unknown[]> {
  const results: unknown[] = [];
  for (const { sql, parameters } of statements) results.push(await manager.query(sql, parameters));
  return results;
}
