import { requestScopes as scopes } from '../common/http/request-scope.js';

/**
 * Runs `work` with every database wait inside it (a pooled connection, each statement, the SQLite
 * write lock) drawing on one budget, counted from the first wait so that the time a slow client takes
 * to upload its body does not count. Outside any scope, waits are unbounded (migrations, the CLI).
 * The scope keeps the request's id (`requestId`, by default the enclosing scope's) for its log lines.
 */
export function withDatabaseBudget<T>(budgetMs: number, work: () => T, requestId = scopes.getStore()?.requestId): T {
  return scopes.run({ requestId, budgetMs }, work);
}

/**
 * Runs `work` with its database waits ending at `deadline` (epoch ms; Infinity for none), whatever
 * scope it is called from: for work done on behalf of others, such as a batch of several requests' rows.
 */
export function withDatabaseDeadline<T>(deadline: number, work: () => T): T {
  return scopes.run({ requestId: scopes.getStore()?.requestId, deadline }, work);
}

/** The current scope's deadline (starting its budget if this is its first wait), or undefined outside any scope. */
export function databaseDeadline(now = Date.now()): number | undefined {
  const scope = scopes.getStore();
  if (!scope) return undefined;
  scope.deadline ??= now + (scope.budgetMs ?? 0);
  return scope.deadline;
}

/** Milliseconds a wait starting now may take: Infinity outside any scope, 0 or less once the deadline has passed. */
export function databaseTimeLeft(now = Date.now()): number {
  const deadline = databaseDeadline(now);
  return deadline === undefined ? Infinity : deadline - now;
}
