/** More password checks are waiting than the queue holds; the caller is told to come back shortly. */
export class PasswordChecksBusyError extends Error {
  constructor() {
    super('Too many password checks are waiting.');
  }
}

export interface PasswordCheckLimits {
  /** Argon2 computations running at once in this process. */
  inFlight: number;
  /** Computations allowed to wait for one of those places; beyond this they are refused. */
  queue: number;
}

export const DEFAULT_PASSWORD_CHECK_LIMITS: PasswordCheckLimits = Object.freeze({ inFlight: 2, queue: 32 });

/**
 * A semaphore with a bounded waiting line around the Argon2 work. Each computation takes 19 MiB and
 * tens of milliseconds of a core, so a flood of password grants (for any number of names) must not
 * hold more of the machine than this, or submissions starve; and a waiting line that only grew would
 * turn a flood into unbounded memory and latency, so a full line refuses at once.
 */
export class PasswordCheckQueue {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limits: PasswordCheckLimits = DEFAULT_PASSWORD_CHECK_LIMITS) {}

  /** Computations waiting for a place. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Runs `task` once a place is free; throws PasswordChecksBusyError when the line is already full. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.limits.inFlight) {
      if (this.waiting.length >= this.limits.queue) throw new PasswordChecksBusyError();
      // The place is handed over by the finishing task, so a newcomer cannot overtake the line.
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
