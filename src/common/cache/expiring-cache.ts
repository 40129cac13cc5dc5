import { LRUCache } from 'lru-cache';
import { type Clock, systemClock } from '../time/clock.js';

export interface ExpiringCacheOptions {
  /** Entries kept at most; when full, the least recently used one makes room. */
  maxEntries: number;
  /** How long an entry is used, unless `set` gives it a lifetime of its own. */
  ttlMs: number;
  /** The time entries expire by; injected so that tests can step past a lifetime without waiting. */
  clock?: Clock;
}

/**
 * A bounded cache whose entries expire: the one way the service remembers database answers and
 * verified tokens for a while. An entry is used for less than its lifetime: one set at t with a
 * lifetime of 4000 ms is found until t + 3999 and gone at t + 4000.
 */
// lru-cache takes neither null nor undefined as a key or a value.
export class ExpiringCache<K extends NonNullable<unknown>, V extends NonNullable<unknown>> {
  private readonly entries: LRUCache<K, V>;

  constructor({ maxEntries, ttlMs, clock = systemClock }: ExpiringCacheOptions) {
    this.entries = new LRUCache<K, V>({
      max: maxEntries,
      // lru-cache keeps an entry while its age is at most `ttl`; one millisecond less makes the lifetime exclusive.
      ttl: lifetime(ttlMs),
      // Read the clock on every lookup rather than reusing a reading for up to a millisecond.
      ttlResolution: 0,
      perf: clock,
    });
  }

  get(key: K): V | undefined {
    return this.entries.get(key);
  }

  /** Remembers `value`; `ttlMs` gives this entry a lifetime of its own. A lifetime that is already over stores nothing. */
  set(key: K, value: V, ttlMs?: number): void {
    if (ttlMs !== undefined && ttlMs <= 0) {
      this.entries.delete(key);
      return;
    }
    this.entries.set(key, value, ttlMs === undefined ? undefined : { ttl: lifetime(ttlMs) });
  }

  delete(key: K): void {
    this.entries.delete(key);
  }
}

function lifetime(ttlMs: number): number {
  return Math.max(1, ttlMs - 1);
}
