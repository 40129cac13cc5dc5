import { Worker } from 'node:worker_threads';

const TICK_MS = 10;

/**
 * How late a busy machine runs this process: a thread of its own ticks every 10 ms and adds up how
 * much later than that each tick came. A thread apart from the event loop, so that what the loop
 * itself waits on (better-sqlite3 waiting for a lock blocks it) is not counted; only the time the
 * machine had no core for the process is. A test subtracts it from a wall-clock measurement, so that
 * a bound on the service's own waits holds on a quiet machine and a loaded one alike.
 */
export class MachineLateness {
  private readonly total = new Float64Array(new SharedArrayBuffer(8));
  private readonly worker: Worker;

  constructor() {
    this.worker = new Worker(
      `const { workerData } = require('node:worker_threads');
       const total = new Float64Array(workerData);
       let last = performance.now();
       setInterval(() => {
         const now = performance.now();
         // A tick's own jitter is not lateness; a gap of more than two ticks is.
         if (now - last > ${2 * TICK_MS}) total[0] += now - last - ${TICK_MS};
         last = now;
       }, ${TICK_MS});`,
      { eval: true, workerData: this.total.buffer },
    );
    this.worker.unref();
  }

  /** Milliseconds of lateness so far; the difference of two readings is the lateness between them. */
  now(): number {
    return this.total[0]!;
  }

  async stop(): Promise<void> {
    await this.worker.terminate();
  }
}
