import { CliError } from '../../common/cli/cli-error.js';
import { instant, optional, parse, required } from '../../common/cli/command-options.js';
import type { AlertChannel } from '../alert-events.js';
import { shownUrl } from '../shown-url.js';
import {
  eventsAndThresholds,
  parseDuration,
  parseEmail,
  parseFormat,
  parseSecret,
  parseThreshold,
  parseWebhookUrl,
} from './alert-input.js';
import type { AlertsAdmin } from './alerts-admin.service.js';

const ALERT_COMMANDS = ['alert:create', 'alert:list', 'alert:delete', 'alert:test'] as const;
export type AlertCommand = (typeof ALERT_COMMANDS)[number];

export function isAlertCommand(command: string | undefined): command is AlertCommand {
  return (ALERT_COMMANDS as readonly (string | undefined)[]).includes(command);
}

/** alert:create, alert:list, alert:delete and alert:test: what each prints (docs/interface.md#administration-command-line). */
export async function runAlertCommand(command: AlertCommand, args: string[], alerts: AlertsAdmin): Promise<Record<string, unknown>> {
  switch (command) {
    case 'alert:create': {
      const values = parse(args, {
        user: { type: 'string' },
        on: { type: 'string' },
        webhook: { type: 'string' },
        format: { type: 'string' },
        secret: { type: 'string' },
        email: { type: 'string' },
        sensor: { type: 'string' },
        'battery-below': { type: 'string' },
        'bait-below': { type: 'string' },
        'remind-after': { type: 'string' },
        'escalate-after': { type: 'string' },
        'escalate-webhook': { type: 'string' },
        'escalate-email': { type: 'string' },
      });
      const target = oneTarget(values, 'webhook', 'email', true)!;
      if (target.channel === 'email' && (values.format !== undefined || values.secret !== undefined)) {
        throw new CliError('--format and --secret go with --webhook only.');
      }
      const escalation = oneTarget(values, 'escalate-webhook', 'escalate-email', false);
      const text = (name: string) => optional(values, name);
      const created = await alerts.create({
        username: required(values, 'user'),
        ...eventsAndThresholds(
          required(values, 'on'),
          text('battery-below') === undefined ? undefined : parseThreshold(text('battery-below')!, 'battery-below'),
          text('bait-below') === undefined ? undefined : parseThreshold(text('bait-below')!, 'bait-below'),
        ),
        ...target,
        format: parseFormat(text('format')),
        secret: text('secret') === undefined ? undefined : parseSecret(text('secret')!),
        devId: text('sensor'),
        remindAfter: text('remind-after') === undefined ? undefined : parseDuration(text('remind-after')!, 'remind-after'),
        escalateAfter: text('escalate-after') === undefined ? undefined : parseDuration(text('escalate-after')!, 'escalate-after'),
        escalation,
      });
      return {
        alert_id: created.id,
        ...(created.secret !== null && { secret: created.secret }),
        ...(created.warning !== undefined && { warning: created.warning }),
      };
    }
    case 'alert:list': {
      parse(args, {});
      return {
        alerts: (await alerts.list()).map((alert) => ({
          alert_id: alert.id,
          user: alert.userName,
          uid: alert.uid,
          events: alert.events,
          sensor: alert.devId,
          channel: alert.channel,
          target: shown(alert.target),
          format: alert.channel === 'webhook' ? alert.format : null,
          battery_below: alert.batteryBelow === null ? null : Number(alert.batteryBelow),
          bait_below: alert.baitBelow === null ? null : Number(alert.baitBelow),
          remind_after: alert.remindAfter,
          escalate_after: alert.escalateAfter,
          escalate_target: alert.escalateTarget && shown(alert.escalateTarget),
          created: instant(alert.created),
        })),
      };
    }
    case 'alert:delete': {
      const id = alertId(parse(args, { id: { type: 'string' } }));
      await alerts.delete(id);
      return { alert_id: id, status: 'deleted' };
    }
    case 'alert:test': {
      const id = alertId(parse(args, { id: { type: 'string' } }));
      const { notificationId, outcome, channel, receiver } = await alerts.test(id);
      const shown = { alert_id: id, notification_id: notificationId, receiver };
      if (outcome.kind === 'delivered')
        return { ...shown, outcome: 'delivered', status: outcome.status ?? null, answer: outcome.answer ?? null };
      // A test notification is tried once: whatever the receiver said, it ends failed.
      const failed = {
        ...shown,
        outcome: 'failed',
        status: outcome.status ?? null,
        reason: outcome.reason,
        answer: outcome.answer ?? null,
      };
      throw new CliError(
        outcome.status === undefined
          ? `The test notification was not delivered to ${receiver}: ${outcome.reason}.`
          : `The test notification was not accepted: ${receiver} answered ${channel === 'email' ? `SMTP ${outcome.status}, not 250` : `HTTP ${outcome.status}, not 2xx`}.`,
        failed,
      );
    }
  }
}

function alertId(values: Record<string, string | boolean | undefined>): number {
  const text = required(values, 'id');
  const id = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(id)) throw new CliError('--id must be an alert id (a whole number).');
  return id;
}

/** Exactly one of a webhook and an email option (or neither, when not `needed`). */
function oneTarget(
  values: Record<string, string | boolean | undefined>,
  webhook: string,
  email: string,
  needed: boolean,
): { channel: AlertChannel; target: string } | undefined {
  const [url, address] = [optional(values, webhook), optional(values, email)];
  if (url !== undefined && address !== undefined) throw new CliError(`Give --${webhook} or --${email}, not both.`);
  if (url !== undefined) return { channel: 'webhook', target: parseWebhookUrl(url, webhook) };
  if (address !== undefined) return { channel: 'email', target: parseEmail(address, email) };
  if (needed) throw new CliError(`Missing required option --${webhook} URL or --${email} ADDRESS.`);
  return undefined;
}

/** A webhook URL with its path masked (shownUrl); an address as it is. */
function shown(target: string): string {
  return target.includes('://') ? shownUrl(target) : target;
}
