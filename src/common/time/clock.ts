/**
 * The time as the service sees it: tokens issued, verified and pruned, flood windows, caches, sensor
 * states. Provided once (ClockModule), so that a test moving it moves all of these together.
 */
export interface Clock {
  /** Milliseconds since the epoch, as `Date.now()`. */
  now(): number;
}

export const CLOCK = Symbol('CLOCK');

export const systemClock: Clock = Object.freeze({ now: () => Date.now() });
