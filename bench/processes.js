// @ts-check
// Child processes of the benchmark: started with their output in a log file, tracked so every one of
// them is killed when the run ends for any reason (normal end, failure, Ctrl-C, watchdog).
import { spawn } from 'node:child_process';
import { openSync, closeSync, readdirSync, readFileSync } from 'node:fs';

const children = new Set();

export function killAll(signal = 'SIGTERM') {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        child.kill(signal);
      } catch {
        // already gone
      }
    }
  }
}

/** Stops one child: SIGTERM, then SIGKILL after `graceMs`. */
export async function stop(child, graceMs = 5000) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

let hooksInstalled = false;
function installHooks() {
  if (hooksInstalled) return;
  hooksInstalled = true;
  process.on('exit', () => killAll('SIGKILL'));
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      process.stderr.write(`\nbench: ${signal}, stopping children\n`);
      killAll('SIGTERM');
      setTimeout(() => process.exit(130), 500).unref();
    });
  }
}

/** @typedef {import('node:child_process').ChildProcess & { benchName: string; logFile: string }} BenchChild */

/**
 * Starts a long-running child whose stdout/stderr go to `logFile`.
 * @param {string} name
 * @param {string} command
 * @param {string[]} args
 * @param {{ env?: NodeJS.ProcessEnv; cwd?: string; logFile: string }} options
 * @returns {BenchChild}
 */
export function startChild(name, command, args, { env, cwd, logFile }) {
  installHooks();
  const fd = openSync(logFile, 'a');
  const child = /** @type {BenchChild} */ (spawn(command, args, { cwd, env, stdio: ['ignore', fd, fd] }));
  closeSync(fd);
  child.benchName = name;
  child.logFile = logFile;
  children.add(child);
  child.on('exit', () => children.delete(child));
  return child;
}

/** The last lines of a child's log, for error messages. */
export function logTail(child, lines = 25) {
  try {
    return readFileSync(child.logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/**
 * Runs a command to completion within `timeoutMs`; resolves `{code, stdout, stderr}`.
 * @param {string} command
 * @param {string[]} args
 * @param {{ env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number }} [options]
 */
export function runCommand(command, args, { env, cwd, timeoutMs = 120_000 } = {}) {
  installHooks();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} ${args.join(' ')} took longer than ${timeoutMs} ms\n${stderr}`));
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      children.delete(child);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Polls `url` until it answers 2xx, the child dies, or `timeoutMs` passes. */
export async function waitForHttp(url, child, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (child && (child.exitCode !== null || child.signalCode !== null)) {
      throw new Error(`${child.benchName} exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${logTail(child)}`);
    }
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.ok) return;
      last = `HTTP ${res.status}`;
    } catch (error) {
      const failure = /** @type {Error & { cause?: { code?: string } }} */ (error);
      last = failure.cause?.code ?? failure.message;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} not ready after ${timeoutMs} ms (${last})${child ? `:\n${logTail(child)}` : ''}`);
}

/** Peak resident memory so far (VmHWM) and current (VmRSS) of a process, in MiB. */
export function memoryOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (key) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { hwmMiB: kib('VmHWM') / 1024, rssMiB: kib('VmRSS') / 1024 };
  } catch {
    return { hwmMiB: NaN, rssMiB: NaN };
  }
}

/** CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat. */
export function cpuSecondsOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return NaN;
  }
}
/** Clock ticks a second of the CPU times in /proc (USER_HZ). */
export const CLOCK_TICKS = 100;

/** Pid of the MariaDB/MySQL server on this machine, if it runs here. */
export function databaseServerPid() {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const comm = readFileSync(`/proc/${entry}/comm`, 'utf8').trim();
      if (comm === 'mariadbd' || comm === 'mysqld') return Number(entry);
    } catch {
      // gone
    }
  }
  return null;
}
