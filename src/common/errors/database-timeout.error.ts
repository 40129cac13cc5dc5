/** A database wait given up at its deadline; answered 503 like the database being away. */
export class DatabaseTimeoutError extends Error {
  static readonly code = 'DATABASE_WAIT_TIMEOUT';
  readonly code = DatabaseTimeoutError.code;

  constructor(waitingFor: string) {
    super(`No time left to wait for ${waitingFor}`);
    this.name = 'DatabaseTimeoutError';
  }
}
