import pLimit, { type LimitFunction } from 'p-limit';

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

const DEFAULT_PASSWORD_CHECK_LIMITS: PasswordCheckLimits = Object.freeze({ inFlight: 2, queue: 32 });

/**
 * A bounded waiting line (p-limit) around the Argon2 work. Each computation takes 19 MiB and tens of
 * milliseconds of a core, so a flood of password grants (for any number of names) must not hold more
 * of the machine than this, or submissions starve; and a waiting line that only grew would turn a flood
 * into unbounded memory and latency, so a full line refuses at once.
 */
export class PasswordCheckQueue {
  private readonly limit: LimitFunction;

  constructor(private readonly limits: PasswordCheckLimits = DEFAULT_PASSWORD_CHECK_LIMITS) {
    this.limit = pLimit(limits.inFlight);
  }

  /** Computations waiting for a place. */
  get queued(): number {
    return this.limit.pendingCount;
  }

  /** Runs `task` once a place is free, in order of arrival; throws PasswordChecksBusyError when the line is already full. */
  run<T>(task: () => Promise<T>): Promise<T> {
    // p-limit counts a task as pending until it starts, a moment after it is given: the sum is what stays exact.
    if (this.limit.activeCount + this.limit.pendingCount >= this.limits.inFlight + this.limits.queue) {
      return Promise.reject(new PasswordChecksBusyError());
    }
    return this.limit(task);
  }
}
