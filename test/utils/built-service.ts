import { cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertBuilt, PROJECT_ROOT } from './built-process.js';

export interface BuiltService {
  /** Where `main.js` and `cli.js` are, as in the project's own dist/. */
  dist: string;
  /** A scratch directory beside the build, for databases and the like. */
  directory: string;
  remove(): void;
}

/**
 * A copy of the run's build (dist/, which the test run's setup brings up to date once) in a directory
 * of its own, so that nothing done to the project's dist/ meanwhile can change the files underneath a
 * running process; they resolve packages from the project.
 */
export function buildService(): Promise<BuiltService> {
  assertBuilt();
  const directory = mkdtempSync(join(tmpdir(), 'sensor-records-built-'));
  const dist = join(directory, 'dist');
  cpSync(join(PROJECT_ROOT, 'dist'), dist, { recursive: true });
  writeFileSync(join(directory, 'package.json'), '{"type":"module"}');
  symlinkSync(join(PROJECT_ROOT, 'node_modules'), join(directory, 'node_modules'), 'dir');
  return Promise.resolve({ dist, directory, remove: () => rmSync(directory, { recursive: true, force: true }) });
}
