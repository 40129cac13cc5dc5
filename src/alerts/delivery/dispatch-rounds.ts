import { AsyncLocalStorage } from 'node:async_hooks';
import type { RoundLoop } from '../../common/process/round-loop.js';
import { SPRUNG_DEADLINE_SECONDS } from '../alert-events.js';
import type { NotificationQueue, NotificationSignal } from '../notification-signal.js';

/** Other instances' notifications, and those that come due by the clock, are looked for this often. */
const POLL_MS = 500;

/** A notification is tried for this long after it was written, then ends failed. */
export const RETRY_FOR_MS = SPRUNG_DEADLINE_SECONDS * 1000;

/**
 * A dispatcher's rounds (docs/alerts.md#delivery): one at start-up, one at once when this instance
 * commits notifications (unless `needsRound` says a round could claim none of them now), and one
 * every 500 ms for the rest.
 */
export function startDispatching(
  rounds: RoundLoop,
  signal: NotificationSignal,
  needsRound: (queues: readonly NotificationQueue[]) => boolean = () => true,
): void {
  // A commit wakes the dispatcher from inside its request; the round it starts is the instance's
  // own, so it runs in the context of start-up: no request's database deadline or log fields.
  const ownContext = AsyncLocalStorage.snapshot();
  signal.listen((queues) => {
    if (!queues || needsRound(queues)) ownContext(() => rounds.wake());
  });
  rounds.start(POLL_MS);
  rounds.wake();
}
