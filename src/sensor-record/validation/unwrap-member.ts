import { ExactNumber } from '../submission/exact-numbers.js';

/**
 * A submitted member in any accepted shape — `[{"value": x}]`, `{"value": x}` or bare `x` (with
 * `target_id` as the key for `type`) — reduced to `x`. An empty list is an absent member; a longer
 * list is returned as it is, for validation to report.
 */
export function unwrapMember(submitted: unknown, key: string): unknown {
  let member = submitted;
  if (Array.isArray(member)) {
    if (member.length === 0) return undefined;
    if (member.length > 1) return member;
    member = member[0];
  }
  if (isPlainObject(member) && Object.hasOwn(member, key)) return member[key];
  return member;
}

/** A JSON object: neither a list nor a number kept as written (ExactNumber). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof ExactNumber);
}
