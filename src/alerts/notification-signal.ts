import { Injectable } from '@nestjs/common';

/**
 * Tells this instance's dispatchers (webhooks, email) that notifications were just committed here, so
 * that they look at once rather than at their next poll.
 */
@Injectable()
export class NotificationSignal {
  private readonly listeners: Array<() => void> = [];

  listen(listener: () => void): void {
    this.listeners.push(listener);
  }

  wake(): void {
    for (const listener of this.listeners) listener();
  }
}
