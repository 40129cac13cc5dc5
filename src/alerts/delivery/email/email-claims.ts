import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { rowsChanged, toColumnValue } from '../../../database/plain-sql.js';
import { runInTransaction, runStatements } from '../../../database/run-in-transaction.js';
import { isWriteConflict } from '../../../database/write-conflict.js';
import { AlertNotificationEntity } from '../../alert-notification.entity.js';
import { ADDRESS_SQL, CHANNEL_SQL } from '../notification-channel.js';
import { CLAIM_SECONDS } from '../notification-claims.js';
import { MAX_NOTIFICATIONS_PER_EMAIL } from './email-message.js';
import type { EmailSettlement } from './email-settlement.js';

/** Rolls back a claim that would have taken part of an address's notifications. */
class ClaimedByAnother extends Error {}

/** The notifications one message carries, held under one claim. */
export interface EmailClaim {
  token: string;
  notifications: AlertNotificationEntity[];
}

/**
 * The email notifications' claims (docs/alerts.md#email). An address is due when its oldest pending
 * notification was written the group window ago, none of its pending notifications waits for a
 * retry, and none is under a live claim; then all its pending notifications (up to 500) are claimed
 * by one UPDATE under a token of their own, in a transaction that keeps all of them or none, sent as
 * one message, and settled together by that token (each of the other statements committed on its own). As with the webhooks' claims, a claim succeeds only
 * while no live claim is on a row, and a Galera write conflict reads as "claimed by another".
 */
export class EmailClaims {
  constructor(private readonly dataSource: DataSource) {}

  /** Up to `limit` addresses whose notifications are due at `now`, the longest waiting first. */
  dueAddresses(now: Date, groupSeconds: number, limit: number): Promise<string[]> {
    return runStatements(this.dataSource, async (manager) => {
      const rows = (await manager.query(
        `SELECT ${ADDRESS_SQL} AS address, MIN(n.id) AS first_id
           FROM alert_notifications n JOIN alerts a ON a.id = n.alert_id
          WHERE n.status = 'pending' AND ${CHANNEL_SQL} = 'email'
          GROUP BY ${ADDRESS_SQL}
         HAVING MAX(n.next_attempt_at) <= ? AND MIN(n.created) <= ?
            AND SUM(CASE WHEN n.claimed_until IS NOT NULL AND n.claimed_until >= ? THEN 1 ELSE 0 END) = 0
          ORDER BY first_id LIMIT ${Number(limit)}`,
        [this.instant(manager, now), this.instant(manager, new Date(now.getTime() - groupSeconds * 1000)), this.instant(manager, now)],
      )) as Array<{ address: string }>;
      return rows.map((row) => row.address);
    });
  }

  /**
   * Claims the pending notifications to `address`, oldest first, all or none: none when another
   * instance holds any of them. An address found due by two instances at once is claimed by the
   * first; the second, coming after it, would otherwise take what was written to the address meanwhile
   * and send it as a second message, ahead of the first (and of the order per sensor). Its UPDATE
   * then changes fewer rows than it meant to, and its transaction is rolled back.
   */
  async claim(address: string, now: Date): Promise<EmailClaim> {
    const token = randomUUID();
    try {
      const notifications = await runInTransaction(this.dataSource, async (manager) => {
        const at = this.instant(manager, now);
        const ids = (
          (await manager.query(
            `SELECT n.id FROM alert_notifications n JOIN alerts a ON a.id = n.alert_id
              WHERE n.status = 'pending' AND ${CHANNEL_SQL} = 'email' AND ${ADDRESS_SQL} = ?
              ORDER BY n.id LIMIT ${MAX_NOTIFICATIONS_PER_EMAIL}`,
            [address],
          )) as Array<{ id: number | string }>
        ).map((row) => Number(row.id));
        if (ids.length === 0) return [];
        const until = this.instant(manager, new Date(now.getTime() + CLAIM_SECONDS * 1000));
        const claimed = await rowsChanged(
          manager,
          `UPDATE alert_notifications SET claimed_by = ?, claimed_until = ?, attempts = attempts + 1
            WHERE id IN (${ids.map(() => '?').join(', ')}) AND status = 'pending' AND (claimed_until IS NULL OR claimed_until < ?)`,
          [token, until, ...ids, at],
        );
        if (claimed !== ids.length) throw new ClaimedByAnother();
        return manager.getRepository(AlertNotificationEntity).find({ where: { claimedBy: token }, order: { id: 'ASC' } });
      });
      return { token, notifications };
    } catch (error) {
      if (error instanceof ClaimedByAnother || isWriteConflict(error)) return { token, notifications: [] };
      throw error;
    }
  }

  /** Marks the claim's notifications as the send ended; answers how many were still held by it. */
  async settle(token: string, settlement: EmailSettlement, now: Date, reason: string | null): Promise<number> {
    return runStatements(this.dataSource, async (manager) => {
      const release = async (ids: number[], assignments: string, values: unknown[]) =>
        ids.length === 0
          ? 0
          : rowsChanged(
              manager,
              `UPDATE alert_notifications SET ${assignments}, claimed_by = NULL, claimed_until = NULL
                WHERE claimed_by = ? AND id IN (${ids.map(() => '?').join(', ')})`,
              [...values, token, ...ids],
            );
      return (
        (await release(settlement.delivered, "status = 'delivered', delivered_at = ?, last_error = NULL", [this.instant(manager, now)])) +
        (await release(settlement.failed, "status = 'failed', last_error = ?", [reason])) +
        (await release(settlement.retry, 'next_attempt_at = ?, last_error = ?', [
          this.instant(manager, settlement.nextAttemptAt ?? now),
          reason,
        ]))
      );
    });
  }

  private instant(manager: EntityManager, at: Date): unknown {
    return toColumnValue(manager, AlertNotificationEntity, 'created', at);
  }
}
