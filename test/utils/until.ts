/**
 * Resolves once `condition` holds, checking every few milliseconds. It sets no deadline of its own:
 * the test's timeout ends a wait that never comes true, so a slow machine only waits longer.
 */
export async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 5));
}
