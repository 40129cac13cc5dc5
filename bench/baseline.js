// @ts-check
// The service as it was at another git revision, built beside this one, so that one run can compare
// a change's cost against the code before it on the same machine, in alternating rounds.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { runCommand } from './processes.js';

/** Exports `rev`'s sources into a temporary directory and compiles them; returns that directory (with `dist/`). */
export async function buildBaseline(root, rev) {
  const dir = mkdtempSync(join(os.tmpdir(), 'sensor-bench-baseline-'));
  const archive = spawnSync(
    'git',
    ['archive', '--format=tar', rev, 'src', 'tsconfig.json', 'tsconfig.build.json', 'package.json', 'package-lock.json'],
    {
      cwd: root,
      maxBuffer: 1 << 30,
    },
  );
  if (archive.status !== 0) throw new Error(`git archive ${rev} failed: ${archive.stderr.toString('utf8').trim()}`);
  const extracted = spawnSync('tar', ['-x', '-C', dir], { input: archive.stdout });
  if (extracted.status !== 0) throw new Error(`extracting ${rev} failed: ${extracted.stderr.toString('utf8').trim()}`);
  // The same dependencies as this tree when the lock file is the same, so that only the service's own
  // code differs; otherwise the revision's own (install scripts are not run: the MySQL driver and the
  // password hasher's prebuilt binary need none).
  if (readFileSync(join(dir, 'package-lock.json'), 'utf8') === readFileSync(join(root, 'package-lock.json'), 'utf8')) {
    symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  } else {
    const installed = await runCommand('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: dir,
      timeoutMs: 600_000,
    });
    if (installed.code !== 0) throw new Error(`installing the dependencies of ${rev} failed:\n${installed.stdout}${installed.stderr}`);
  }
  const built = await runCommand(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
    cwd: dir,
    timeoutMs: 300_000,
  });
  if (built.code !== 0) throw new Error(`building ${rev} failed:\n${built.stdout}${built.stderr}`);
  return dir;
}
