/** No OAuth client has the given id. */
export class UnknownClientError extends Error {
  constructor(readonly clientId: string) {
    super(`There is no client with the id "${clientId}".`);
  }
}
