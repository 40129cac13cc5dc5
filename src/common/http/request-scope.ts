import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What a request's work carries across its awaits: the id its log lines name and its database
 * deadline. One scope for both, since each scope copies its context onto every promise made in it.
 */
export interface RequestScope {
  /** The request's id (its X-Request-Id), named by every line logged while it is handled. */
  readonly requestId?: string;
  /** Epoch milliseconds after which no database wait of the scope may continue; set at its first wait. */
  deadline?: number;
  /** Budget started by the first wait, for a scope opened without a deadline. */
  budgetMs?: number;
}

export const requestScopes = new AsyncLocalStorage<RequestScope>();

/** The id of the request being handled, or undefined outside any request. */
export function currentRequestId(): string | undefined {
  return requestScopes.getStore()?.requestId;
}
