/** Freezes a value and everything it holds, so that a shared fixture cannot be changed by one test for the next. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const member of Object.values(value)) deepFreeze(member);
    Object.freeze(value);
  }
  return value;
}
