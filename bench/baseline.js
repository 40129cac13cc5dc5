// @ts-check
// The service as it was at another git revision, built beside this one, so that one run can compare
// a change's cost against the code before it on the same machine, in alternating rounds.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { runCommand } from './processes.js';

/** Exports `rev`'s sources into a temporary directory and compiles them; returns that directory (with `dist/`). */
export async function buildBaseline(root, rev) {
  const dir = mkdtempSync(join(os.tmpdir(), 'sensor-bench-baseline-'));
  const archive = spawnSync('git', ['archive', '--format=tar', rev, 'src', 'tsconfig.json', 'tsconfig.build.json', 'package.json'], {
    cwd: root,
    maxBuffer: 1 << 30,
  });
  if (archive.status !== 0) throw new Error(`git archive ${rev} failed: ${archive.stderr.toString('utf8').trim()}`);
  const extracted = spawnSync('tar', ['-x', '-C', dir], { input: archive.stdout });
  if (extracted.status !== 0) throw new Error(`extracting ${rev} failed: ${extracted.stderr.toString('utf8').trim()}`);
  // The same dependencies as this tree: only the service's own code differs.
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  const built = await runCommand(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
    cwd: dir,
    timeoutMs: 300_000,
  });
  if (built.code !== 0) throw new Error(`building ${rev} failed:\n${built.stdout}${built.stderr}`);
  return dir;
}
