import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project root: the built files and package.json the spawned processes run. */
export const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BUILT_MAIN = join(PROJECT_ROOT, 'dist/main.js');
export const BUILT_CLI = join(PROJECT_ROOT, 'dist/cli.js');

export interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * The environment a spawned process starts from: the test run's signing keys and nothing of the
 * test harness' own settings (database, log level), so each test states what it relies on.
 */
export function childEnvironment(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const { DATABASE_URL: _database, LOG_LEVEL: _level, NODE_ENV: _mode, ENV_FILE: _file, ...rest } = process.env;
  return { ...rest, NODE_ENV: 'test', ...extra };
}

/** Runs a command to its end and collects what it printed. */
export function run(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<Finished> {
  return finished(spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] }));
}

export function finished(child: ChildProcess): Promise<Finished> {
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolvePromise, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => resolvePromise({ code, signal, stdout, stderr }));
  });
}

/** A scratch working directory, removed by `remove()`. */
export function scratchDirectory(prefix: string): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** The lines a process printed, one JSON object per line (fails the test on a line that is not JSON). */
export function jsonLines(output: string): Array<Record<string, unknown>> {
  return output
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new Error(`Not a JSON log line: ${line}`);
      }
    });
}

/** Fails early with a clear message when the suites run without a build (globalSetup makes one). */
export function assertBuilt(): void {
  if (!existsSync(BUILT_MAIN) || !existsSync(BUILT_CLI)) throw new Error('dist/ is missing: run `npm run build` first.');
}

export interface RunningService {
  child: ChildProcess;
  port: number;
  /** Every line printed on stdout so far, parsed. */
  lines: Array<Record<string, unknown>>;
  /** Resolves once the process has ended. */
  exited: Promise<Finished>;
}

/**
 * Starts `node dist/main.js` and waits for its "Serving on port" line; rejects with everything the
 * process printed when it ends before that.
 */
export function startService(options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<RunningService> {
  const child = spawn(process.execPath, [BUILT_MAIN], { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = finished(child);
  const lines: Array<Record<string, unknown>> = [];
  let pending = '';
  return new Promise((resolvePromise, reject) => {
    child.stdout?.on('data', (chunk: string) => {
      pending += chunk;
      let end: number;
      while ((end = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, end);
        pending = pending.slice(end + 1);
        if (line === '') continue;
        const entry = jsonLines(line)[0];
        lines.push(entry);
        const serving = /^Serving on port (\d+) /.exec(String(entry.msg));
        if (serving) resolvePromise({ child, port: Number(serving[1]), lines, exited });
      }
    });
    void exited.then((result) => reject(new Error(`The service ended before serving: ${JSON.stringify(result)}`)));
  });
}
