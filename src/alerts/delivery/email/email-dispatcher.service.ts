import { type BeforeApplicationShutdown, Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { RoundLoop } from '../../../common/process/round-loop.js';
import { CLOCK, type Clock } from '../../../common/time/clock.js';
import { APP_CONFIG, type AppConfig, type SmtpConfig } from '../../../config/app-config.js';
import { MetricsService } from '../../../metrics/metrics.service.js';
import type { AlertNotificationEntity } from '../../alert-notification.entity.js';
import { NotificationSignal } from '../../notification-signal.js';
import { markFirstDelivery } from '../../sprung-episodes.js';
import { RETRY_FOR_MS, startDispatching } from '../dispatch-rounds.js';
import { receiverName } from '../notification-sender.js';
import type { SendOutcome } from '../send-outcome.js';
import { EmailClaims } from './email-claims.js';
import { emailMessage, idRanges } from './email-message.js';
import { sendEmail } from './email-sender.js';
import { settleEmail } from './email-settlement.js';

/** Messages sent at once by this instance (all to the one SMTP server). */
const MESSAGES_AT_ONCE = 4;

/**
 * Sends the email notifications (docs/alerts.md#email), grouped by address: an address's pending
 * notifications wait ALERT_EMAIL_GROUP_SECONDS from the oldest of them, then go as one message,
 * claimed together and marked together once the SMTP server has accepted it. Runs only where SMTP is
 * configured; an instance without it leaves them pending for one that has it.
 */
@Injectable()
export class EmailDispatcher implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('EmailDispatcher');
  private readonly claims: EmailClaims;
  private readonly smtp?: SmtpConfig;
  private readonly rounds = new RoundLoop(() => this.round(), {
    whileRunning: 'once-more',
    failed: (error) =>
      this.logger.warn(`Could not look for email notifications: ${error instanceof Error ? error.message : String(error)}`),
  });

  constructor(
    private readonly dataSource: DataSource,
    private readonly signal: NotificationSignal,
    private readonly metrics: MetricsService,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.claims = new EmailClaims(dataSource);
    this.smtp = config.alerts.email.smtp;
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.smtp) {
      await this.warnIfEmailAlerts();
      return;
    }
    startDispatching(this.rounds, this.signal);
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.rounds.stop();
  }

  /** Sends one message to each due address (a few at once); having sent any, looks again. */
  private async round(): Promise<void> {
    const now = new Date(this.clock.now());
    const addresses = await this.claims.dueAddresses(now, this.config.alerts.email.groupSeconds, MESSAGES_AT_ONCE);
    const sent = await Promise.all(addresses.map((address) => this.sendTo(address, this.smtp!)));
    if (sent.some(Boolean)) this.rounds.wake();
  }

  private async sendTo(address: string, smtp: SmtpConfig): Promise<boolean> {
    const { token, notifications } = await this.claims.claim(address, new Date(this.clock.now()));
    if (notifications.length === 0) return false;
    const started = this.clock.now();
    let outcome: SendOutcome;
    try {
      outcome = await sendEmail(smtp, address, emailMessage(notifications, this.config.baseUrl));
    } catch (error) {
      outcome = { kind: 'retry', reason: error instanceof Error ? error.message : String(error) };
    }
    await this.settle(token, notifications, outcome, receiverName('email', address), started);
    return true;
  }

  private async settle(
    token: string,
    notifications: AlertNotificationEntity[],
    outcome: SendOutcome,
    receiver: string,
    started: number,
  ): Promise<void> {
    const now = this.clock.now();
    const settlement = settleEmail(notifications, outcome, now, RETRY_FOR_MS);
    await this.claims.settle(token, settlement, new Date(now), outcome.kind === 'delivered' ? null : outcome.reason);
    const byId = new Map(notifications.map((notification) => [notification.id, notification]));
    for (const id of settlement.delivered) {
      this.metrics.notificationSent('email', 'delivered', Math.max(0, now - byId.get(id)!.created.getTime()) / 1000);
    }
    settlement.retry.forEach(() => this.metrics.notificationSent('email', 'retry'));
    settlement.failed.forEach(() => this.metrics.notificationSent('email', 'failed'));
    const episodes = settlement.delivered.map((id) => byId.get(id)!.episodeId).filter((episode) => episode !== null);
    await markFirstDelivery(this.dataSource, episodes, new Date(now));

    const ids = (list: number[]) => idRanges(list, ',');
    const line = `notification_ids=${ids(notifications.map((notification) => notification.id))} alert_ids=${ids(notifications.map((notification) => notification.alertId))} receiver=${receiver} attempt=${Math.max(...notifications.map((notification) => notification.attempts))}`;
    const status = outcome.status ? ` status=${outcome.status}` : '';
    if (outcome.kind === 'delivered') {
      this.logger.log(`${line} outcome=delivered${status} ms=${now - started}`);
      return;
    }
    if (settlement.retry.length > 0) {
      this.logger.warn(
        `${line} outcome=retry${status} reason="${outcome.reason}" next_attempt_at=${settlement.nextAttemptAt!.toISOString()}`,
      );
    }
    // Those past their 24 hours fail even when the rest are tried again.
    if (settlement.failed.length > 0)
      this.logger.error(`${line} outcome=failed${status} failed_ids=${ids(settlement.failed)} reason="${outcome.reason}"`);
  }

  /** Email alerts that no instance without SMTP will send: said once at start-up, the notifications kept. */
  private async warnIfEmailAlerts(): Promise<void> {
    try {
      const [row] = (await this.dataSource.query(
        "SELECT COUNT(*) AS count FROM alerts WHERE channel = 'email' OR escalate_channel = 'email'",
      )) as Array<{ count: number | string }>;
      if (Number(row?.count ?? 0) > 0) {
        this.logger.warn(
          `${row!.count} alert(s) send email, and SMTP_URL is not set here: their notifications stay pending for an instance that has it (docs/alerts.md#email)`,
        );
      }
    } catch (error) {
      this.logger.warn(`Could not count the email alerts: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
