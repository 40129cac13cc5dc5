import { rmSync } from 'node:fs';

// The same registered symbol globalSetup stores the directory under (both run in Jest's parent process).
const TEST_KEY_DIRECTORY = Symbol.for('sensor-records.test-key-directory');

/** Runs once after all suites: removes the key pair globalSetup wrote, leaving nothing in the temp folder. */
export default function globalTeardown(): void {
  const directory = (globalThis as Record<symbol, unknown>)[TEST_KEY_DIRECTORY];
  if (typeof directory === 'string') rmSync(directory, { recursive: true, force: true });
}
