import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CLOCK, type Clock } from '../../common/time/clock.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import type { AlertChannel, Recipient, WebhookFormat } from '../alert-events.js';
import type { AlertNotificationEntity } from '../alert-notification.entity.js';
import { AlertEntity } from '../alert.entity.js';
import { emailMessage } from './email/email-message.js';
import { sendEmail } from './email/email-sender.js';
import type { SendOutcome } from './send-outcome.js';
import { webhookRequest } from './webhook-request.js';
import { sendWebhook } from './webhook-sender.js';

/** Where one notification goes: the alert's target, or its escalation target. */
export interface NotificationTarget {
  channel: AlertChannel;
  address: string;
  format: WebhookFormat;
  secret: string | null;
  /** What the logs and the per-receiver limit name it by: a URL's origin, never its path or query. */
  receiver: string;
}

/** Sends one notification by its channel (the email dispatcher sends emails grouped; alert:test one alone). */
@Injectable()
export class NotificationSender {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The notification's target, read with the alert's secret; null when the alert was deleted. */
  async targetOf(notification: AlertNotificationEntity): Promise<NotificationTarget | null> {
    return (await this.targetsOf([notification])).get(notification.id) ?? null;
  }

  /** The targets of several notifications, their alerts read in one statement, by notification id; none for a deleted alert. */
  async targetsOf(notifications: AlertNotificationEntity[]): Promise<Map<number, NotificationTarget>> {
    const targets = new Map<number, NotificationTarget>();
    if (notifications.length === 0) return targets;
    const alerts = await this.dataSource
      .getRepository(AlertEntity)
      .createQueryBuilder('alert')
      .addSelect('alert.secret')
      .whereInIds([...new Set(notifications.map((notification) => notification.alertId))])
      .getMany();
    const alertOf = new Map(alerts.map((alert) => [alert.id, alert]));
    for (const notification of notifications) {
      const alert = alertOf.get(notification.alertId);
      if (alert) targets.set(notification.id, targetOf(alert, notification.recipient));
    }
    return targets;
  }

  async send(notification: AlertNotificationEntity, target: NotificationTarget): Promise<SendOutcome> {
    if (target.channel === 'email') {
      const { smtp } = this.config.alerts.email;
      if (!smtp) return { kind: 'failed', reason: 'SMTP_URL is not set' };
      return sendEmail(smtp, target.address, emailMessage([notification], this.config.baseUrl));
    }
    const request = webhookRequest(notification, target, this.config.baseUrl, Math.floor(this.clock.now() / 1000));
    return sendWebhook(target.address, request, () => this.clock.now());
  }
}

/** Where a notification of `alert` to `recipient` goes. */
export function targetOf(alert: AlertEntity, recipient: Recipient): NotificationTarget {
  const escalation = recipient === 'escalation' && alert.escalateChannel && alert.escalateTarget;
  const channel = escalation ? alert.escalateChannel! : alert.channel;
  const address = escalation ? alert.escalateTarget! : alert.target;
  return { channel, address, format: alert.format, secret: alert.secret, receiver: receiverName(channel, address) };
}

export function receiverName(channel: AlertChannel, address: string): string {
  if (channel === 'email') return address.slice(address.lastIndexOf('@'));
  try {
    return new URL(address).origin;
  } catch {
    return 'webhook';
  }
}
