/** A place in the feed's order: a record's `changed` (whole seconds), then its nid (docs/interface.md#paging-and-its-guarantee). */
export interface FeedPoint {
  changed: Date;
  nid: number;
}

/**
 * Extra seconds a record may take to become visible after its `changed` second, beyond the database
 * deadline: one because `changed` is cut to the second, one for the clocks of two instances differing.
 */
const SETTLE_EXTRA_MS = 2000;

/**
 * The last `changed` second the feed serves at `now`. A record's `changed` is taken before its row
 * waits for the database, and its COMMIT is sent before its request's deadline (DB_REQUEST_TIMEOUT_MS)
 * or never; so once `changed` is older than that deadline plus SETTLE_EXTRA_MS, every record of that
 * second that will ever be acknowledged is visible, and a reader that has passed it skips nothing.
 */
export function settledUntil(now: number, requestTimeoutMs: number): Date {
  return new Date(Math.floor((now - requestTimeoutMs - SETTLE_EXTRA_MS) / 1000) * 1000);
}

function isAfter(a: FeedPoint, b: FeedPoint): boolean {
  const difference = a.changed.getTime() - b.changed.getTime();
  return difference > 0 || (difference === 0 && a.nid > b.nid);
}

/** Where to go on from when everything up to `horizon` has been read from `start`. */
export function afterHorizon(start: FeedPoint, horizon: Date): FeedPoint {
  const next: FeedPoint = { changed: new Date(horizon.getTime() + 1000), nid: 0 };
  return isAfter(start, next) ? start : next;
}
