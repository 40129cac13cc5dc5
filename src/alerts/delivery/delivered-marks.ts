import { setTimeout as delay } from 'node:timers/promises';
import type { NotificationClaims } from './notification-claims.js';

interface Mark {
  id: number;
  episodeId: number | null;
  /** Epoch ms (real time) after which another instance may take the notification over. */
  claimEnds: number;
  done: () => void;
  failed: (error: unknown) => void;
}

/** A mark that failed is tried again this long after, while its claim lasts. */
const RETRY_MS = 250;
/** Marks stop being tried this long before their claim runs out: another instance may send it then. */
const CLAIM_MARGIN_MS = 1000;
/** Episodes whose first delivery this instance noted, kept to skip noting them again (a reset after its sprung). */
const NOTED_EPISODES_KEPT = 10_000;

/**
 * Marks the notifications sent as delivered (docs/alerts.md#delivery): those delivered while one
 * mark is under way go together in the next, one UPDATE, and one more for their episodes' first
 * delivery when this instance has not noted it already, sent with it (notification-claims.ts
 * `delivered`). A mark that fails (no pooled connection in time, the database away for a moment) is
 * tried again, with its note, until shortly before the claim runs out, so that a notification is sent
 * twice only when its instance dies between the send and the mark.
 */
export class DeliveredMarks {
  private waiting: Mark[] = [];
  private marking: Promise<void> | null = null;
  /** Episodes whose first delivery is noted (a noted one is never unnoted), oldest first. */
  private readonly noted = new Set<number>();

  constructor(
    private readonly claims: NotificationClaims,
    private readonly clock: () => number,
  ) {}

  /** Resolves once the notification is marked delivered and its episode's first delivery noted; rejects when its claim ran out first. */
  mark(id: number, episodeId: number | null, claimEnds: number): Promise<void> {
    return new Promise((done, failed) => {
      this.waiting.push({ id, episodeId, claimEnds, done, failed });
      this.next();
    });
  }

  private next(): void {
    if (this.marking || this.waiting.length === 0) return;
    const group = this.waiting;
    this.waiting = [];
    this.marking = this.markAll(group).finally(() => {
      this.marking = null;
      this.next();
    });
  }

  private async markAll(group: Mark[]): Promise<void> {
    const episodes = [
      ...new Set(group.flatMap((mark) => (mark.episodeId === null || this.noted.has(mark.episodeId) ? [] : [mark.episodeId]))),
    ];
    let left = group;
    for (;;) {
      try {
        await this.claims.delivered(
          left.map((mark) => mark.id),
          new Date(this.clock()),
          episodes,
        );
        break;
      } catch (error) {
        const lasting = left.filter((mark) => mark.claimEnds - Date.now() > CLAIM_MARGIN_MS + RETRY_MS);
        for (const mark of left) if (!lasting.includes(mark)) mark.failed(error);
        if (lasting.length === 0) return;
        left = lasting;
        await delay(RETRY_MS);
      }
    }
    this.remember(episodes);
    for (const mark of left) mark.done();
  }

  private remember(episodes: number[]): void {
    for (const episode of episodes) this.noted.add(episode);
    for (const episode of this.noted) {
      if (this.noted.size <= NOTED_EPISODES_KEPT) break;
      this.noted.delete(episode);
    }
  }
}
