import { ExactNumber } from './exact-numbers.js';

/**
 * Whether a parsed JSON document nests objects and arrays more than `limit` deep (the document itself
 * is level 1). Walks with a stack of its own, so no document is too deep to measure.
 */
export function exceedsNesting(document: unknown, limit: number): boolean {
  if (!isContainer(document)) return false;
  const values: object[] = [document];
  const depths: number[] = [1];
  while (values.length > 0) {
    const value = values.pop()!;
    const depth = depths.pop()!;
    if (depth > limit) return true;
    for (const key in value) {
      const child = (value as Record<string, unknown>)[key];
      if (isContainer(child)) {
        values.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}

/** An object or a list: a number kept as written (ExactNumber) is a value. */
function isContainer(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !(value instanceof ExactNumber);
}
