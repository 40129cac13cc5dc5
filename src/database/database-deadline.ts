import { AsyncLocalStorage } from 'node:async_hooks';

interface DeadlineScope {
  /** Epoch milliseconds after which no database wait of the scope may continue; set at its first wait. */
  deadline?: number;
  /** Budget started by the first wait, for a scope opened without a deadline. */
  budgetMs?: number;
}

const scopes = new AsyncLocalStorage<DeadlineScope>();

/**
 * Runs `work` with every database wait inside it (a pooled connection, each statement, the SQLite
 * write lock) drawing on one budget, counted from the first wait so that the time a slow client takes
 * to upload its body does not count. Outside any scope, waits are unbounded (migrations, the CLI).
 */
export function withDatabaseBudget<T>(budgetMs: number, work: () => T): T {
  return scopes.run({ budgetMs }, work);
}

/**
 * Runs `work` with its database waits ending at `deadline` (epoch ms; Infinity for none), whatever
 * scope it is called from: for work done on behalf of others, such as a batch of several requests' rows.
 */
export function withDatabaseDeadline<T>(deadline: number, work: () => T): T {
  return scopes.run({ deadline }, work);
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
