import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

export interface BuiltService {
  /** Where `main.js` and `cli.js` are, as in the project's own dist/. */
  dist: string;
  /** A scratch directory beside the build, for databases and the like. */
  directory: string;
  remove(): void;
}

/**
 * Compiles the service as `npm run build` does, into a directory of its own so that no other suite's
 * build can change the files underneath a running process; they resolve packages from the project.
 */
export async function buildService(): Promise<BuiltService> {
  const directory = mkdtempSync(join(tmpdir(), 'sensor-records-built-'));
  const dist = join(directory, 'dist');
  await promisify(execFile)(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json', '--outDir', dist]);
  writeFileSync(join(directory, 'package.json'), '{"type":"module"}');
  symlinkSync(resolve('node_modules'), join(directory, 'node_modules'), 'dir');
  return { dist, directory, remove: () => rmSync(directory, { recursive: true, force: true }) };
}
