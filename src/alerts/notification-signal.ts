import { Injectable } from '@nestjs/common';

/**
 * Tells this instance's dispatcher that notifications were just committed here, so that it sends them
 * at once rather than at its next poll.
 */
@Injectable()
export class NotificationSignal {
  private listener?: () => void;

  listen(listener: () => void): void {
    this.listener = listener;
  }

  wake(): void {
    this.listener?.();
  }
}
