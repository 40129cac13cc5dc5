import { Module } from '@nestjs/common';
import { CLOCK, systemClock } from '../common/time/clock.js';
import { AlertClock } from './alert-clock.service.js';
import { AlertOutbox } from './alert-outbox.js';
import { AlertDispatcher } from './delivery/alert-dispatcher.service.js';
import { NotificationSender } from './delivery/notification-sender.js';
import { NotificationSignal } from './notification-signal.js';

/** Alerts (docs/alerts.md): the outbox the record writer fills, the clock, and the dispatcher. */
@Module({
  providers: [AlertOutbox, AlertClock, AlertDispatcher, NotificationSender, NotificationSignal, { provide: CLOCK, useValue: systemClock }],
  exports: [AlertOutbox],
})
export class AlertsModule {}
