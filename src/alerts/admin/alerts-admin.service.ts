import { randomBytes, randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { UnknownUserError } from '../../auth/users/user-errors.js';
import type { UsersService } from '../../auth/users/users.service.js';
import type { Clock } from '../../common/time/clock.js';
import { wholeSeconds } from '../../common/time/whole-seconds.js';
import type { AppConfig } from '../../config/app-config.js';
import { runInTransaction } from '../../database/run-in-transaction.js';
import {
  DEFAULT_ESCALATE_AFTER_SECONDS,
  DEFAULT_REMIND_AFTER_SECONDS,
  type AlertChannel,
  type AlertEvent,
  type WebhookFormat,
} from '../alert-events.js';
import { AlertNotificationEntity } from '../alert-notification.entity.js';
import { AlertEntity } from '../alert.entity.js';
import { CLAIM_SECONDS, NotificationClaims } from '../delivery/notification-claims.js';
import { NotificationSender, receiverName } from '../delivery/notification-sender.js';
import type { SendOutcome } from '../delivery/send-outcome.js';
import { notificationText } from '../notification-text.js';
import { InvalidAlertInputError, UnknownAlertError } from './alert-errors.js';
import { checkClockSteps } from './alert-input.js';
import { alertSensorWarning } from './alert-sensor.js';

export interface CreateAlertInput {
  username: string;
  events: AlertEvent[];
  channel: AlertChannel;
  target: string;
  format: WebhookFormat;
  secret?: string;
  devId?: string;
  batteryBelow?: string;
  baitBelow?: string;
  remindAfter?: number;
  escalateAfter?: number;
  escalation?: { channel: AlertChannel; target: string };
}

/** Bytes of a generated webhook secret, shown once as hex (never starting with a dash, which the command line would read as an option). */
const SECRET_BYTES = 32;

/** alert:create, alert:list, alert:delete and alert:test (docs/interface.md#administration-command-line). */
export class AlertsAdmin {
  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UsersService,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  /** Creates the alert; `warning` when the sensor it names has not reported yet (see alertSensorWarning). */
  async create(input: CreateAlertInput): Promise<{ id: number; secret: string | null; warning?: string }> {
    const user = await this.users.findByName(input.username);
    if (!user) throw new UnknownUserError(input.username);
    if (input.events.length === 0) throw new InvalidAlertInputError('--on names no event.');
    if (input.escalateAfter !== undefined && !input.escalation) {
      throw new InvalidAlertInputError('--escalate-after needs --escalate-webhook URL or --escalate-email ADDRESS.');
    }
    const remindAfter = input.remindAfter ?? DEFAULT_REMIND_AFTER_SECONDS;
    const escalateAfter = input.escalation ? (input.escalateAfter ?? DEFAULT_ESCALATE_AFTER_SECONDS) : null;
    checkClockSteps(remindAfter, escalateAfter, input.escalateAfter !== undefined);
    if ((input.channel === 'email' || input.escalation?.channel === 'email') && !this.config.alerts.email.smtp) {
      throw new InvalidAlertInputError('Email alerts need SMTP_URL and ALERT_EMAIL_FROM in the configuration (docs/alerts.md#email).');
    }
    const warning =
      input.devId === undefined ? undefined : await alertSensorWarning(this.dataSource.manager, user.uid, user.name, input.devId);
    const secret = input.channel === 'webhook' ? (input.secret ?? randomBytes(SECRET_BYTES).toString('hex')) : null;
    const inserted = await this.dataSource.getRepository(AlertEntity).insert({
      uid: user.uid,
      events: input.events,
      devId: input.devId ?? null,
      channel: input.channel,
      target: input.target,
      format: input.format,
      secret,
      batteryBelow: input.batteryBelow ?? null,
      baitBelow: input.baitBelow ?? null,
      remindAfter,
      escalateAfter,
      escalateChannel: input.escalation?.channel ?? null,
      escalateTarget: input.escalation?.target ?? null,
      created: wholeSeconds(new Date(this.clock.now())),
    });
    return { id: Number(inserted.identifiers[0]!.id), secret, ...(warning !== undefined && { warning }) };
  }

  async list(): Promise<Array<AlertEntity & { userName: string }>> {
    const alerts = await this.dataSource.getRepository(AlertEntity).find({ order: { id: 'ASC' } });
    const names = new Map<number, string>();
    for (const uid of new Set(alerts.map((alert) => alert.uid))) {
      const [row] = (await this.dataSource.query('SELECT name FROM users WHERE uid = ?', [uid])) as Array<{ name: string }>;
      names.set(uid, row?.name ?? '');
    }
    return alerts.map((alert) => Object.assign(alert, { userName: names.get(alert.uid)! }));
  }

  /** Deletes the alert and its notifications not yet sent. */
  async delete(id: number): Promise<void> {
    const deleted = await runInTransaction(this.dataSource, async (manager) => {
      await manager.getRepository(AlertNotificationEntity).delete({ alertId: id });
      return manager.getRepository(AlertEntity).delete({ id });
    });
    if (!deleted.affected) throw new UnknownAlertError(id);
  }

  /**
   * Sends a `test` notification now, from this process, and answers what the receiver said. Its row
   * is written already claimed by this process, so that no running instance sends it too.
   */
  async test(id: number): Promise<{ notificationId: number; outcome: SendOutcome; channel: AlertChannel; receiver: string }> {
    const alert = await this.dataSource.getRepository(AlertEntity).findOneBy({ id });
    if (!alert) throw new UnknownAlertError(id);
    const holder = randomUUID();
    const now = new Date(this.clock.now());
    const inserted = await this.dataSource.getRepository(AlertNotificationEntity).insert({
      alertId: alert.id,
      uid: alert.uid,
      devId: alert.devId ?? '',
      event: 'test',
      recipient: 'primary',
      occurredAt: now,
      text: notificationText('test', {
        devId: alert.devId ?? '',
        at: now,
        siteTimezone: this.config.siteTimezone,
        now: now.getTime(),
        alertId: alert.id,
      }),
      sensor: 'null',
      recordNid: null,
      episodeId: null,
      dedupeKey: null,
      status: 'pending',
      attempts: 1,
      nextAttemptAt: now,
      claimedBy: holder,
      claimedUntil: new Date(now.getTime() + CLAIM_SECONDS * 1000),
      created: now,
      deliveredAt: null,
      lastError: null,
    });
    const notificationId = Number(inserted.identifiers[0]!.id);
    const notification = await this.dataSource.getRepository(AlertNotificationEntity).findOneByOrFail({ id: notificationId });
    const sender = new NotificationSender(this.dataSource, this.clock, this.config);
    const target = (await sender.targetOf(notification))!;
    const outcome = await sender.send(notification, target);
    const claims = new NotificationClaims(this.dataSource, holder);
    if (outcome.kind === 'delivered') await claims.delivered([notificationId], new Date(this.clock.now()));
    else await claims.failed(notificationId, outcome.reason);
    return { notificationId, outcome, channel: target.channel, receiver: receiverName(target.channel, target.address) };
  }
}
