/**
 * The time as the service's windows and caches see it (flood windows, the token-state cache,
 * pruning). Injected, so that a test can move through a window without waiting for it.
 */
export interface Clock {
  /** Milliseconds since the epoch, as `Date.now()`. */
  now(): number;
}

export const CLOCK = Symbol('CLOCK');

export const systemClock: Clock = Object.freeze({ now: () => Date.now() });
