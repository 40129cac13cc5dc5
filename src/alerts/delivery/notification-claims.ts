import type { DataSource, EntityManager } from 'typeorm';
import { type AliasedColumns, aliasedColumns, rowsChanged, toColumnValue } from '../../database/plain-sql.js';
import { runStatements } from '../../database/run-in-transaction.js';
import { type Statement, sendTogether } from '../../database/send-together.js';
import { isWriteConflict } from '../../database/write-conflict.js';
import type { Recipient } from '../alert-events.js';
import { AlertNotificationEntity } from '../alert-notification.entity.js';
import { AlertEntity } from '../alert.entity.js';
import { firstDeliveryStatement } from '../sprung-episodes.js';
import { SENT_BY_EMAIL_SQL } from './notification-channel.js';

/** Where a notification goes: its alert's target, or the alert's escalation target. */
export interface NotificationRoute {
  alertId: number;
  recipient: Recipient;
}

/** A notification claimed, with its alert (secret included) as the claim read it; none when the alert was deleted. */
export type ClaimedNotification = AlertNotificationEntity & { alert?: AlertEntity };

const list = (values: readonly unknown[]) => values.map(() => '?').join(', ');

/** A claim outlasts a send (5 s) many times over; a claim whose holder died is taken over after it. */
export const CLAIM_SECONDS = 60;

/**
 * The notifications' claims, as plain statements each committed on its own (docs/alerts.md#delivery).
 * An instance claims the notifications of a round with one UPDATE that takes only those with no live
 * claim on them, so each is sent by one instance; on a Galera cluster two nodes' UPDATEs of one row
 * cannot both certify, and the loser's write conflict reads as "claimed by another". Only the head of each
 * (alert, sensor, recipient) queue is eligible: the notifications of one sensor go out in order.
 * Email notifications are the email claims' (email/email-claims.ts): they go grouped by address.
 */
export class NotificationClaims {
  /** The read's columns, made once (metadata.columns does not change). */
  private columns?: { notification: AliasedColumns<AlertNotificationEntity>; alert: AliasedColumns<AlertEntity> };

  constructor(
    private readonly dataSource: DataSource,
    private readonly holder: string,
  ) {}

  /**
   * Claims up to `limit` notifications due at `now`; answers those this instance now holds. Left out:
   * the notifications this instance still holds (`skip.held`: their claim is renewed before a send
   * that waited, never taken twice), and the routes (an alert's target or its escalation target) that
   * lead to a receiver with every send slot taken (`skip.routes`), so that they hold up no one else's.
   */
  async claim(
    now: Date,
    limit: number,
    skip: { held?: Iterable<number>; routes?: ReadonlyArray<NotificationRoute> } = {},
  ): Promise<ClaimedNotification[]> {
    const held = [...(skip.held ?? [])];
    const routes = skip.routes ?? [];
    // The due heads read whole, with their alerts, before the claim: a round is two statements when the
    // claim takes them all, as it does unless another instance claimed one of them in between.
    const due = await this.statements((manager) => {
      const at = this.instant(manager, now);
      const skipped = routes.map(() => ' AND NOT (n.alert_id = ? AND n.recipient = ?)').join('');
      return this.withAlerts(
        manager,
        `WHERE n.status = 'pending' AND n.next_attempt_at <= ? AND (n.claimed_until IS NULL OR n.claimed_until < ?)
           AND NOT ${SENT_BY_EMAIL_SQL}
           AND NOT EXISTS (SELECT 1 FROM alert_notifications p
             WHERE p.alert_id = n.alert_id AND p.uid = n.uid AND p.dev_id = n.dev_id AND p.recipient = n.recipient
               AND p.status = 'pending' AND p.id < n.id)${held.length > 0 ? ` AND n.id NOT IN (${list(held)})` : ''}${skipped}
         ORDER BY n.id LIMIT ${Math.trunc(limit)}`,
        [at, at, ...held, ...routes.flatMap((route) => [route.alertId, route.recipient])],
      );
    });
    if (due.length === 0) return [];
    const ids = due.map((notification) => notification.id);
    const claimed = await this.claimAll(ids, now);
    if (claimed === null) return [];
    if (claimed === due.length) {
      const until = new Date(now.getTime() + CLAIM_SECONDS * 1000);
      return due.map((notification) =>
        Object.assign(notification, { claimedBy: this.holder, claimedUntil: until, attempts: notification.attempts + 1 }),
      );
    }
    // Some were claimed by another instance meanwhile: those whose claim is now this instance's, read again.
    return this.statements((manager) =>
      this.withAlerts(manager, `WHERE n.id IN (${list(ids)}) AND n.claimed_by = ? ORDER BY n.id`, [...ids, this.holder]),
    );
  }

  /**
   * Marks claimed notifications delivered in one statement, and notes the first delivery of `episodes`
   * in a second sent with it (one round trip on MySQL; the mark first, so that a failure of the note
   * leaves it applied, and a mark sent again changes nothing); answers how many were still this instance's.
   */
  delivered(ids: number[], now: Date, episodes: number[] = []): Promise<number> {
    return this.statements(async (manager) => {
      const mark = this.finishing(ids, 'status = ?, delivered_at = ?, last_error = NULL', ['delivered', this.instant(manager, now)]);
      const note = episodes.length > 0 ? [firstDeliveryStatement(manager, episodes, now)] : [];
      const [marked] = await sendTogether(manager, [mark, ...note]);
      return marked!;
    });
  }

  /** Marks a claimed notification failed for good. */
  failed(id: number, reason: string): Promise<boolean> {
    return this.finish(id, 'status = ?, last_error = ?', () => ['failed', reason]);
  }

  /** Gives a claimed notification back, to be tried again at `next`. */
  retryAt(id: number, next: Date, reason: string): Promise<boolean> {
    return this.finish(id, 'next_attempt_at = ?, last_error = ?', (manager) => [this.instant(manager, next), reason]);
  }

  /** Renews a claim still held (for a notification that waited its turn); false when it was lost meanwhile. */
  renew(id: number, now: Date): Promise<boolean> {
    return this.statements(
      async (manager) =>
        (await rowsChanged(
          manager,
          `UPDATE alert_notifications SET claimed_until = ? WHERE id = ? AND status = 'pending' AND claimed_by = ?`,
          [this.instant(manager, new Date(now.getTime() + CLAIM_SECONDS * 1000)), id, this.holder],
        )) === 1,
    );
  }

  /** Gives a claimed notification back unsent (the instance is stopping), due at once for another. */
  release(id: number): Promise<boolean> {
    return this.finish(id, 'attempts = attempts - 1', () => []);
  }

  /**
   * Claims the candidates still unclaimed and still due in one UPDATE; answers how many it took. On a
   * Galera cluster another node's claim of one of them fails the whole statement at certification: then
   * none is claimed this round (null), and the next round finds the rest.
   */
  private async claimAll(ids: number[], now: Date): Promise<number | null> {
    try {
      return await this.statements((manager) => {
        const at = this.instant(manager, now);
        const until = this.instant(manager, new Date(now.getTime() + CLAIM_SECONDS * 1000));
        return rowsChanged(
          manager,
          `UPDATE alert_notifications SET claimed_by = ?, claimed_until = ?, attempts = attempts + 1
            WHERE id IN (${list(ids)}) AND status = 'pending' AND next_attempt_at <= ?
              AND (claimed_until IS NULL OR claimed_until < ?)`,
          [this.holder, until, ...ids, at, at],
        );
      });
    } catch (error) {
      if (isWriteConflict(error)) return null;
      throw error;
    }
  }

  private finish(id: number, assignments: string, values: (manager: EntityManager) => unknown[]): Promise<boolean> {
    return this.finishAll([id], assignments, values).then((changed) => changed === 1);
  }

  private finishAll(ids: number[], assignments: string, values: (manager: EntityManager) => unknown[]): Promise<number> {
    return this.statements((manager) => {
      const { sql, parameters } = this.finishing(ids, assignments, values(manager));
      return rowsChanged(manager, sql, parameters);
    });
  }

  /** The UPDATE that ends this instance's claims of `ids` with `assignments`. */
  private finishing(ids: number[], assignments: string, values: unknown[]): Statement {
    return {
      sql: `UPDATE alert_notifications SET ${assignments}, claimed_by = NULL, claimed_until = NULL
          WHERE id IN (${list(ids)}) AND claimed_by = ?`,
      parameters: [...values, ...ids, this.holder],
    };
  }

  /**
   * The notifications `rest` selects (`n`), each with its alert (secret included) or none when it was
   * deleted, as plain SQL: the query builder's building and hydration of this read cost the dispatcher
   * more than the rest of its round (docs/benchmark.md#alerts).
   */
  private async withAlerts(manager: EntityManager, rest: string, parameters: unknown[]): Promise<ClaimedNotification[]> {
    this.columns ??= {
      notification: aliasedColumns(manager, AlertNotificationEntity, 'n'),
      alert: aliasedColumns(manager, AlertEntity, 'alert', { hidden: true }),
    };
    const { notification, alert } = this.columns;
    const rows: Array<Record<string, unknown>> = await manager.query(
      `SELECT ${notification.select}, ${alert.select}
         FROM alert_notifications n LEFT JOIN alerts alert ON alert.id = n.alert_id ${rest}`,
      parameters,
    );
    return rows.map((row) => Object.assign(notification.read(row)!, { alert: alert.read(row) }));
  }

  private instant(manager: EntityManager, at: Date): unknown {
    return toColumnValue(manager, AlertNotificationEntity, 'created', at);
  }

  private statements<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return runStatements(this.dataSource, work);
  }
}
