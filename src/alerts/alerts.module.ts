import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CLOCK, systemClock } from '../common/time/clock.js';
import { AlertClock } from './alert-clock.service.js';
import { AlertOutbox } from './alert-outbox.js';
import { AlertDispatcher } from './delivery/alert-dispatcher.service.js';
import { EmailDispatcher } from './delivery/email/email-dispatcher.service.js';
import { NotificationSender } from './delivery/notification-sender.js';
import { SprungEpisodesController } from './episodes/sprung-episodes.controller.js';
import { NotificationSignal } from './notification-signal.js';
import { SprungEpisodeEntity } from './sprung-episode.entity.js';

/** Alerts (docs/alerts.md): the outbox the record writer fills, the clock, the dispatchers (webhooks, email), and the sprung episodes' report. */
@Module({
  imports: [TypeOrmModule.forFeature([SprungEpisodeEntity])],
  controllers: [SprungEpisodesController],
  providers: [
    AlertOutbox,
    AlertClock,
    AlertDispatcher,
    EmailDispatcher,
    NotificationSender,
    NotificationSignal,
    { provide: CLOCK, useValue: systemClock },
  ],
  exports: [AlertOutbox],
})
export class AlertsModule {}
