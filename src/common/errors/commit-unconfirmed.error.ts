/**
 * A COMMIT was sent and the database never said whether it applied it (the statement outlived its
 * deadline, or the connection dropped): the rows may be stored although the caller is answered 503.
 */
export class CommitUnconfirmedError extends Error {
  static readonly code = 'COMMIT_UNCONFIRMED';
  readonly code = CommitUnconfirmedError.code;

  constructor(cause: unknown) {
    super(`The database did not confirm the COMMIT: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'CommitUnconfirmedError';
  }
}
