/**
 * Queues whose cap on entries keeps a long-running instance's memory flat: past it the counts are
 * forgotten, and their queues' later notifications wait for the 500 ms poll, as another instance's do.
 */
const MAX_QUEUES = 10_000;

/**
 * The notifications this instance committed to each queue (an alert's sensor and recipient) and has not
 * yet seen a send of here: while one is left behind a send that ends, the next of that queue is due at
 * once (docs/alerts.md#delivery), so the dispatcher looks for it then rather than at its next poll. A
 * count may stay above what is really left (another instance sent some, or a send is retried later): it
 * then costs a round that claims nothing, once per count.
 */
export class QueuedHere {
  private readonly counts = new Map<string, number>();

  /** One notification committed here to `queue`. */
  committed(queue: string): void {
    if (!this.counts.has(queue) && this.counts.size >= MAX_QUEUES) this.counts.clear();
    this.counts.set(queue, (this.counts.get(queue) ?? 0) + 1);
  }

  /** A send of `queue` ended here: whether one committed here may still be waiting behind it. */
  sent(queue: string): boolean {
    const left = (this.counts.get(queue) ?? 0) - 1;
    if (left <= 0) {
      this.counts.delete(queue);
      return false;
    }
    this.counts.set(queue, left);
    return true;
  }
}
