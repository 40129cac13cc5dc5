import { randomUUID } from 'node:crypto';
import { type BeforeApplicationShutdown, Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { RoundLoop } from '../../common/process/round-loop.js';
import { CLOCK, type Clock } from '../../common/time/clock.js';
import { MetricsService } from '../../metrics/metrics.service.js';
import { type NotificationQueue, NotificationSignal } from '../notification-signal.js';
import { DeliveredMarks } from './delivered-marks.js';
import { RETRY_FOR_MS, startDispatching } from './dispatch-rounds.js';
import { type ClaimedNotification, CLAIM_SECONDS, NotificationClaims, type NotificationRoute } from './notification-claims.js';
import { NotificationSender, type NotificationTarget, targetOf } from './notification-sender.js';
import { ReceiverSlots } from './receiver-slots.js';
import { nextAttemptAt, type SendOutcome } from './send-outcome.js';
import { QueuedHere } from './queued-here.js';

/** Notifications claimed at a time. */
const CLAIM_BATCH = 20;
/** Notifications this instance holds at once, being sent or waiting for their receiver. */
const MAX_HELD = 100;
/** Sends to one receiver at once from this instance. */
const SENDS_PER_RECEIVER = 4;
/** A send that waited for its receiver renews its claim first when less than this is left of it (a send takes 5 s at most). */
const RENEW_BELOW_MS = (CLAIM_SECONDS * 1000) / 2;

const routeKey = (route: NotificationRoute) => `${route.alertId}:${route.recipient}`;
const queueKey = (queue: NotificationQueue) => `${queue.alertId}:${queue.recipient}:${queue.uid}:${queue.devId}`;

/**
 * Sends the alerts' notifications (docs/alerts.md#delivery): woken at once by this instance's own
 * commits, and polling every 500 ms for the rest; each notification claimed before it is sent, so
 * that several instances send different ones, and released with its outcome. A crash between the
 * send and the mark repeats the send once the claim runs out (at least once, never lost).
 *
 * The claims of a round are one UPDATE and the claimed rows with their alerts one read; the
 * notifications delivered while one mark is under way are marked together in the next, their
 * episodes' first delivery noted in the same round trip, tried again while their claims last
 * (delivered-marks.ts).
 *
 * A round costs a read of the due heads, so none is started that could claim nothing: a commit whose
 * notifications all wait behind one this instance holds (their sensor's) or for a receiver whose send
 * slots are all taken starts none, and is looked for when that send ends; a send's end starts a round
 * only when something was left for it so. What another instance wrote behind a notification held here
 * is found by the poll.
 *
 * Sends are pipelined: a round claims what is due and starts its sends without waiting for them, at
 * most four at once per receiver, so that a receiver that holds every request for the whole timeout
 * delays its own notifications only. A notification whose send ends makes the next of its sensor
 * eligible, and starts another round at once when this instance committed that next one (QueuedHere).
 */
@Injectable()
export class AlertDispatcher implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('AlertDispatcher');
  private readonly holder = randomUUID();
  private readonly claims: NotificationClaims;
  private readonly marks: DeliveredMarks;
  private readonly rounds = new RoundLoop(() => this.round(), {
    whileRunning: 'once-more',
    failed: (error) => this.logger.warn(`Could not look for notifications: ${error instanceof Error ? error.message : String(error)}`),
  });
  private readonly slots = new ReceiverSlots(SENDS_PER_RECEIVER);
  /** The sends in progress or waiting for a slot, each holding its claim, by notification id. */
  private readonly held = new Map<number, Promise<void>>();
  /** The queue of each notification held, by id. */
  private readonly heldQueues = new Map<number, string>();
  /**
   * What a send's end is to look for: queues with a notification committed behind one held, and
   * receivers (`receiver:<name>`) with notifications left for a free slot; `all`: any send's end.
   */
  private readonly leftFor = new Set<string>();
  /** The notifications committed here per queue: a send's end looks for the next of its queue at once. */
  private readonly queuedHere = new QueuedHere();
  /** The receiver of each route seen, by `alertId:recipient` (an alert's targets never change). */
  private readonly receiverOf = new Map<string, { route: NotificationRoute; receiver: string }>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly signal: NotificationSignal,
    private readonly sender: NotificationSender,
    private readonly metrics: MetricsService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.claims = new NotificationClaims(dataSource, this.holder);
    this.marks = new DeliveredMarks(this.claims, () => this.clock.now());
  }

  onApplicationBootstrap(): void {
    startDispatching(this.rounds, this.signal, (queues) => this.needsRound(queues));
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.rounds.stop();
    // The sends under way end (5 s at most); those still waiting for a slot give their claims back.
    await Promise.all(this.held.values());
  }

  /** Claims what is due and starts sending it, without waiting for the sends; a full round may leave more. */
  private async round(): Promise<void> {
    const room = Math.min(CLAIM_BATCH, MAX_HELD - this.held.size);
    if (room <= 0) {
      this.leftFor.add('all');
      return;
    }
    const full = [...this.receiverOf.values()].filter(({ receiver }) => this.slots.full(receiver));
    for (const { receiver } of full) this.leftFor.add(`receiver:${receiver}`);
    // Several notifications of one sensor never come in one round (only a queue's head is claimed).
    const due = await this.claims.claim(new Date(this.clock.now()), room, {
      held: this.held.keys(),
      routes: full.map(({ route }) => route),
    });
    const claimEnds = Date.now() + CLAIM_SECONDS * 1000;
    for (const notification of due) {
      const target = notification.alert ? targetOf(notification.alert, notification.recipient) : null;
      this.heldQueues.set(notification.id, queueKey(notification));
      const sending: Promise<void> = this.sendOne(notification, target, claimEnds)
        .catch((error: unknown) =>
          this.logger.warn(
            `notification_id=${notification.id} could not be sent or marked (its claim runs out): ${error instanceof Error ? error.message : String(error)}`,
          ),
        )
        .finally(() => this.sent(notification, target));
      this.held.set(notification.id, sending);
    }
    if (due.length === room) this.rounds.wake();
  }

  /** Whether a round now could claim any of the notifications just committed here to `queues`. */
  private needsRound(queues: readonly NotificationQueue[]): boolean {
    const held = new Set(this.heldQueues.values());
    let needed = false;
    for (const queue of queues) {
      this.queuedHere.committed(queueKey(queue));
      const receiver = this.receiverOf.get(routeKey(queue))?.receiver;
      if (receiver !== undefined && this.slots.full(receiver)) this.leftFor.add(`receiver:${receiver}`);
      else if (held.has(queueKey(queue))) this.leftFor.add(queueKey(queue));
      else needed = true;
    }
    return needed;
  }

  /** A send ended: its claim is no longer held; a round starts when something was left for it. */
  private sent(notification: ClaimedNotification, target: NotificationTarget | null): void {
    this.held.delete(notification.id);
    this.heldQueues.delete(notification.id);
    const waiting = [
      this.leftFor.delete('all'),
      this.leftFor.delete(queueKey(notification)),
      this.queuedHere.sent(queueKey(notification)),
      target !== null && this.leftFor.delete(`receiver:${target.receiver}`),
    ];
    if (waiting.some(Boolean)) this.rounds.wake();
  }

  private async sendOne(notification: ClaimedNotification, target: NotificationTarget | null, claimEnds: number): Promise<void> {
    const started = this.clock.now();
    if (!target) return this.settle(notification, { kind: 'failed', reason: 'the alert is gone' }, 'gone', 'gone', started, claimEnds);
    const { receiver } = target;
    const route = { alertId: notification.alertId, recipient: notification.recipient };
    this.receiverOf.set(routeKey(route), { route, receiver });
    let outcome: SendOutcome;
    const waited = await this.slots.take(receiver);
    try {
      if (waited && this.rounds.stopping) {
        // Another instance may send it now.
        await this.claims.release(notification.id);
        return;
      }
      // Its claim, renewed when it may run out before the send ends; a lost claim is another's to send.
      if (waited && claimEnds - Date.now() < RENEW_BELOW_MS) {
        if (!(await this.claims.renew(notification.id, new Date(this.clock.now())))) return;
        claimEnds = Date.now() + CLAIM_SECONDS * 1000;
      }
      outcome = await this.sender.send(notification, target).catch((error: unknown) => ({
        kind: 'retry' as const,
        reason: error instanceof Error ? error.message : String(error),
      }));
    } finally {
      this.slots.give(receiver);
    }
    await this.settle(notification, outcome, target.channel, receiver, started, claimEnds);
  }

  private async settle(
    notification: ClaimedNotification,
    outcome: SendOutcome,
    channel: string,
    receiver: string,
    started: number,
    claimEnds: number,
  ): Promise<void> {
    const now = this.clock.now();
    const line = `notification_id=${notification.id} alert_id=${notification.alertId} event=${notification.event} receiver=${receiver} attempt=${notification.attempts}`;
    if (outcome.kind === 'delivered') {
      await this.marks.mark(notification.id, notification.episodeId, claimEnds);
      this.metrics.notificationSent(channel, 'delivered', Math.max(0, now - notification.created.getTime()) / 1000);
      this.logger.log(`${line} outcome=delivered${outcome.status ? ` status=${outcome.status}` : ''} ms=${now - started}`);
      return;
    }
    if (outcome.kind === 'retry' && now - notification.created.getTime() < RETRY_FOR_MS) {
      const next = nextAttemptAt(now, notification.attempts, outcome.retryAfterMs);
      await this.claims.retryAt(notification.id, next, outcome.reason);
      this.metrics.notificationSent(channel, 'retry');
      this.logger.warn(`${line} outcome=retry reason="${outcome.reason}" next_attempt_at=${next.toISOString()}`);
      return;
    }
    await this.claims.failed(notification.id, outcome.reason);
    this.metrics.notificationSent(channel, 'failed');
    this.logger.error(`${line} outcome=failed reason="${outcome.reason}"`);
  }
}
