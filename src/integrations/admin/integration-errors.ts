/** No integration has the given id. */
export class UnknownIntegrationError extends Error {
  constructor(readonly id: number) {
    super(`There is no integration with the id ${id}.`);
  }
}

/** An option of integration:create that cannot be used. */
export class InvalidIntegrationInputError extends Error {}
