import { rmSync } from 'node:fs';

// The same registered symbol globalSetup stores the directory under (both run in Jest's parent process).
const TEST_KEY_DIRECTORY = Symbol.for('sensor-records.test-key-directory');
const TEST_DATABASE_CLAIM = Symbol.for('sensor-records.test-database-claim');

/**
 * Runs once after all suites: removes the key pair globalSetup wrote, leaving nothing in the temp
 * folder, and gives up the run's claim on its MySQL test databases.
 */
export default async function globalTeardown(): Promise<void> {
  const directory = (globalThis as Record<symbol, unknown>)[TEST_KEY_DIRECTORY];
  if (typeof directory === 'string') rmSync(directory, { recursive: true, force: true });
  const claim = (globalThis as Record<symbol, unknown>)[TEST_DATABASE_CLAIM] as { end(): Promise<void> } | undefined;
  await claim?.end();
}
