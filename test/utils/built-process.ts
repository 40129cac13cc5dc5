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

type LogLine = Record<string, unknown>;

/**
 * `node dist/main.js` as a child process: its stdout lines parsed as they come (JSON log lines),
 * and ways to wait for a line, for the "Serving on port" line, and for the end.
 */
export class ServiceProcess {
  readonly child: ChildProcess;
  readonly lines: LogLine[] = [];
  /** Resolves once the process has ended. */
  readonly exited: Promise<Finished>;
  private readonly waiters: Array<{ matches: (line: LogLine) => boolean; resolve: (line: LogLine) => void }> = [];
  private pending = '';

  constructor(options: { cwd: string; env: NodeJS.ProcessEnv }) {
    this.child = spawn(process.execPath, [BUILT_MAIN], { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    this.exited = finished(this.child);
    this.child.stdout?.on('data', (chunk: string) => this.read(chunk));
  }

  /** The first line (already printed or still to come) that `matches`; rejects if the process ends first. */
  waitForLine(matches: (line: LogLine) => boolean): Promise<LogLine> {
    const found = this.lines.find(matches);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      this.waiters.push({ matches, resolve });
      void this.exited.then((result) => reject(new Error(`The service ended first: ${JSON.stringify(result)}`)));
    });
  }

  /** Waits for "Serving on port N" and returns N. */
  async serving(): Promise<number> {
    const line = await this.waitForLine((entry) => /^Serving on port \d+ /.test(String(entry.msg)));
    return Number(/^Serving on port (\d+) /.exec(String(line.msg))![1]);
  }

  messages(): string[] {
    return this.lines.map((line) => String(line.msg));
  }

  /** Ends the process (SIGKILL unless told otherwise) and waits for it. */
  async stop(signal: NodeJS.Signals = 'SIGKILL'): Promise<Finished> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
    return this.exited;
  }

  private read(chunk: string): void {
    this.pending += chunk;
    let end: number;
    while ((end = this.pending.indexOf('\n')) >= 0) {
      const text = this.pending.slice(0, end);
      this.pending = this.pending.slice(end + 1);
      if (text === '') continue;
      // A line that is not JSON is kept as it is, for the test to see and fail on.
      let line: LogLine;
      try {
        line = JSON.parse(text) as LogLine;
      } catch {
        line = { notJson: text };
      }
      this.lines.push(line);
      for (const waiter of this.waiters.filter((candidate) => candidate.matches(line))) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    }
  }
}
