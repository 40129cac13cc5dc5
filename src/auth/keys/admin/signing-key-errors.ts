/** A kid that names neither a key of the database nor the configured key. */
export class UnknownSigningKeyError extends Error {
  constructor(kid: string) {
    super(`No signing key has the kid "${kid}" (keys:list shows them).`);
  }
}

/** Retiring this key now would refuse tokens it still signs, or may have signed and are still valid. */
export class KeyRetirementRefusedError extends Error {}
