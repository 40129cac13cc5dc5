/** No alert has the given id. */
export class UnknownAlertError extends Error {
  constructor(readonly id: number) {
    super(`There is no alert with the id ${id}.`);
  }
}

/** An option of alert:create that cannot be used. */
export class InvalidAlertInputError extends Error {}
