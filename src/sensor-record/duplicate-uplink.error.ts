/**
 * A record made from a network-server uplink was refused by the unique index on `uplink_key`: the
 * same uplink is stored already (or is being stored by a concurrent request, on any instance).
 * Nothing of this request was stored; the record stored first can be found by `uplinkKey`.
 */
export class DuplicateUplinkError extends Error {
  constructor(
    readonly uplinkKey: string,
    cause: unknown,
  ) {
    super(`The uplink ${uplinkKey} is stored already`, { cause });
    this.name = 'DuplicateUplinkError';
  }
}

/** A unique index refused a row (MySQL/MariaDB, SQLite). */
export function isUniqueViolation(error: unknown): boolean {
  const { code, driverError } = (error ?? {}) as { code?: unknown; driverError?: { code?: unknown } };
  return [code, driverError?.code].some((found) => found === 'ER_DUP_ENTRY' || found === 'SQLITE_CONSTRAINT_UNIQUE');
}
