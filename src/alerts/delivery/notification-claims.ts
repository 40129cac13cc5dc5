import type { DataSource, EntityManager } from 'typeorm';
import { rowsChanged, toColumnValue } from '../../database/plain-sql.js';
import { runStatements } from '../../database/run-in-transaction.js';
import { isWriteConflict } from '../../database/write-conflict.js';
import { AlertNotificationEntity } from '../alert-notification.entity.js';

/** A claim outlasts a send (5 s) many times over; a claim whose holder died is taken over after it. */
export const CLAIM_SECONDS = 60;

/**
 * The notifications' claims, as plain statements each committed on its own (docs/alerts.md#delivery).
 * An instance claims a notification with an UPDATE that succeeds only while no live claim is on it,
 * so each is sent by one instance; on a Galera cluster two nodes' UPDATEs of one row cannot both
 * certify, and the loser's write conflict reads as "claimed by another". Only the head of each
 * (alert, sensor) queue is eligible: the notifications of one sensor go out in order.
 */
export class NotificationClaims {
  constructor(
    private readonly dataSource: DataSource,
    private readonly holder: string,
  ) {}

  /** Claims up to `limit` notifications due at `now`; answers those this instance now holds. */
  async claim(now: Date, limit: number): Promise<AlertNotificationEntity[]> {
    const candidates = await this.statements(async (manager) => {
      const at = this.instant(manager, now);
      const rows = (await manager.query(
        `SELECT n.id FROM alert_notifications n
          WHERE n.status = 'pending' AND n.next_attempt_at <= ? AND (n.claimed_until IS NULL OR n.claimed_until < ?)
            AND NOT EXISTS (SELECT 1 FROM alert_notifications p
              WHERE p.alert_id = n.alert_id AND p.uid = n.uid AND p.dev_id = n.dev_id AND p.status = 'pending' AND p.id < n.id)
          ORDER BY n.id LIMIT ${Number(limit)}`,
        [at, at],
      )) as Array<{ id: number | string }>;
      return rows.map((row) => Number(row.id));
    });
    const claimed: number[] = [];
    for (const id of candidates) if (await this.claimOne(id, now)) claimed.push(id);
    if (claimed.length === 0) return [];
    return this.statements((manager) =>
      manager.getRepository(AlertNotificationEntity).createQueryBuilder('n').whereInIds(claimed).orderBy('n.id').getMany(),
    );
  }

  /** Marks a claimed notification delivered; false when the claim was lost meanwhile. */
  delivered(id: number, now: Date): Promise<boolean> {
    return this.finish(id, 'status = ?, delivered_at = ?, last_error = NULL', (manager) => ['delivered', this.instant(manager, now)]);
  }

  /** Marks a claimed notification failed for good. */
  failed(id: number, reason: string): Promise<boolean> {
    return this.finish(id, 'status = ?, last_error = ?', () => ['failed', reason]);
  }

  /** Gives a claimed notification back, to be tried again at `next`. */
  retryAt(id: number, next: Date, reason: string): Promise<boolean> {
    return this.finish(id, 'next_attempt_at = ?, last_error = ?', (manager) => [this.instant(manager, next), reason]);
  }

  private async claimOne(id: number, now: Date): Promise<boolean> {
    try {
      return await this.statements(async (manager) => {
        const at = this.instant(manager, now);
        const until = this.instant(manager, new Date(now.getTime() + CLAIM_SECONDS * 1000));
        const changed = await rowsChanged(
          manager,
          `UPDATE alert_notifications SET claimed_by = ?, claimed_until = ?, attempts = attempts + 1
            WHERE id = ? AND status = 'pending' AND (claimed_until IS NULL OR claimed_until < ?)`,
          [this.holder, until, id, at],
        );
        return changed === 1;
      });
    } catch (error) {
      if (isWriteConflict(error)) return false;
      throw error;
    }
  }

  private finish(id: number, assignments: string, values: (manager: EntityManager) => unknown[]): Promise<boolean> {
    return this.statements(
      async (manager) =>
        (await rowsChanged(
          manager,
          `UPDATE alert_notifications SET ${assignments}, claimed_by = NULL, claimed_until = NULL WHERE id = ? AND claimed_by = ?`,
          [...values(manager), id, this.holder],
        )) === 1,
    );
  }

  private instant(manager: EntityManager, at: Date): unknown {
    return toColumnValue(manager, AlertNotificationEntity, 'created', at);
  }

  private statements<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return runStatements(this.dataSource, work);
  }
}
