/**
 * Conditional writes that changed nothing, and a read after them showing that they should have changed a
 * row, again each time the work was run: the writes keep running on an older state of the database than
 * the read. Answered 503 like the database being unavailable.
 */
export class StaleWritesError extends Error {
  static readonly code = 'STALE_WRITES';
  readonly code = StaleWritesError.code;

  constructor(what: string) {
    super(`The writes kept seeing an older state of the database than the read after them: ${what}`);
    this.name = 'StaleWritesError';
  }
}
