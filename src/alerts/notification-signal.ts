import { Injectable } from '@nestjs/common';
import type { Recipient } from './alert-events.js';

/** Where a notification waits its turn: its route (alert and recipient) and its sensor; sent in order within it. */
export interface NotificationQueue {
  alertId: number;
  recipient: Recipient;
  uid: number;
  devId: string;
}

/**
 * Tells this instance's dispatchers (webhooks, email) that notifications were just committed here, so
 * that they look at once rather than at their next poll; with the queues they were written to, when
 * the committer knows them.
 */
@Injectable()
export class NotificationSignal {
  private readonly listeners: Array<(queues?: readonly NotificationQueue[]) => void> = [];

  listen(listener: (queues?: readonly NotificationQueue[]) => void): void {
    this.listeners.push(listener);
  }

  wake(queues?: readonly NotificationQueue[]): void {
    for (const listener of this.listeners) listener(queues);
  }
}
