/** How long a wait may last before it fails: far beyond any wait on a busy machine, well inside jest's 120 s. */
const WITHIN_MS = 60_000;

/**
 * Resolves once a condition holds, checking every few milliseconds. A wait that has not come true
 * within 60 s (or `withinMs`) fails, naming the condition by its source and the last value it saw, so
 * that a stuck test says what it was waiting for rather than running into jest's timeout.
 *
 * `until(condition)` waits for `condition()` to be true; `until(read, holds)` waits for
 * `holds(read())`, and a failure shows the last value read.
 */
export async function until(condition: () => boolean | Promise<boolean>, options?: { withinMs?: number }): Promise<void>;
export async function until<T>(read: () => T | Promise<T>, holds: (value: T) => boolean, options?: { withinMs?: number }): Promise<void>;
export async function until<T>(
  read: () => T | Promise<T>,
  holdsOrOptions?: ((value: T) => boolean) | { withinMs?: number },
  options: { withinMs?: number } = {},
): Promise<void> {
  const holds = typeof holdsOrOptions === 'function' ? holdsOrOptions : (value: T) => Boolean(value);
  const withinMs = (typeof holdsOrOptions === 'function' ? options : (holdsOrOptions ?? {})).withinMs ?? WITHIN_MS;
  const deadline = Date.now() + withinMs;
  for (;;) {
    const value = await read();
    if (holds(value)) return;
    if (Date.now() >= deadline) {
      const source = typeof holdsOrOptions === 'function' ? `${sourceOf(read)} then ${sourceOf(holdsOrOptions)}` : sourceOf(read);
      throw new Error(`Not true within ${withinMs / 1000} s: ${source}; last seen: ${shown(value)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function sourceOf(fn: (...args: never[]) => unknown): string {
  return fn.toString().replace(/\s+/g, ' ');
}

function shown(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 2000 ? `${text.slice(0, 2000)}…` : text;
}
