import { setTimeout as delay } from 'node:timers/promises';
import type { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import { runInTransaction } from '../database/run-in-transaction.js';
import { SensorRecordEntity } from '../sensor-record/sensor-record.entity.js';

/** Records per transaction: row locks held for milliseconds, and a Galera write set far below its limits. */
export const PURGE_BATCH_SIZE = 500;
/** After each batch the purge rests at least this long, and at least this many times as long as the batch took. */
const MIN_PAUSE_MS = 150;
// Resting as long as a batch took cost ingestion 19 % of its requests/s (docs/benchmark.md#retention-beside-ingestion).
const PAUSE_PER_BATCH_TIME = 3;

/** How a purge goes on: stopped at the next batch once `signal` aborts; `onBatch` told each batch's rows. */
export interface PurgeProgress {
  signal?: AbortSignal;
  onBatch?: (rows: number) => void;
}

interface Point {
  created: Date;
  nid: number;
}

/**
 * Deletes old records, or empties their request bodies, in small transactions paced so that ingestion
 * keeps its speed (docs/operations.md#retention). Both walk the `created` index in (created, nid) order.
 * Neither touches `changed`, which orders the records feed: a record whose body is emptied keeps its
 * place there, and a deleted one is simply gone (nids are never handed out again).
 */
export class RecordPurge {
  /** Where the last walk of request bodies ended: the bodies before it are empty, so the next walk starts there. */
  private bodiesEmptiedUpTo?: Point;

  constructor(private readonly dataSource: DataSource) {}

  /** Deletes every record created before `before`; answers how many it deleted. */
  deleteRecords(before: Date, progress: PurgeProgress = {}): Promise<number> {
    return this.inBatches(progress, async (manager) => {
      const nids = (await this.olderThan(manager, before).getRawMany<{ nid: number | string }>()).map((row) => Number(row.nid));
      if (nids.length > 0)
        await manager.createQueryBuilder().delete().from(SensorRecordEntity).where('nid IN (:...nids)', { nids }).execute();
      return { rows: nids.length };
    });
  }

  /** Empties the request body of every record created before `before`, keeping the record; answers how many. */
  async emptyRequestBodies(before: Date, progress: PurgeProgress = {}): Promise<number> {
    let from = this.bodiesEmptiedUpTo && this.bodiesEmptiedUpTo.created < before ? this.bodiesEmptiedUpTo : undefined;
    const emptied = await this.inBatches(
      progress,
      async (manager) => {
        const read = this.olderThan(manager, before).addSelect('record.created', 'created').andWhere("record.requestBody <> ''");
        if (from) {
          read.andWhere('(record.created > :fromCreated OR (record.created = :fromCreated AND record.nid > :fromNid))', {
            fromCreated: from.created,
            fromNid: from.nid,
          });
        }
        const rows = await read.getRawMany<{ nid: number | string; created: Date | string }>();
        if (rows.length === 0) return { rows: 0, last: from };
        const nids = rows.map((row) => Number(row.nid));
        await manager
          .createQueryBuilder()
          .update(SensorRecordEntity)
          .set({ requestBody: '' })
          .where('nid IN (:...nids)', { nids })
          .execute();
        const last = rows[rows.length - 1]!;
        return { rows: rows.length, last: { created: toDate(last.created), nid: Number(last.nid) } };
      },
      // Moved on only once a batch has committed: a batch run again after a write conflict starts where it started.
      (batch) => (from = batch.last),
    );
    if (!progress.signal?.aborted && from) this.bodiesEmptiedUpTo = from;
    return emptied;
  }

  /** What a purge before `before` would remove, without removing it. */
  async count(before: Date): Promise<{ records: number; requestBodies: number }> {
    const count = (read: SelectQueryBuilder<SensorRecordEntity>) => read.getCount();
    const records = this.dataSource
      .getRepository(SensorRecordEntity)
      .createQueryBuilder('record')
      .where('record.created < :before', { before });
    return {
      records: await count(records.clone()),
      requestBodies: await count(records.clone().andWhere("record.requestBody <> ''")),
    };
  }

  /** When the oldest record still kept was received; null when there is none. */
  async oldestCreated(): Promise<Date | null> {
    const row = await this.dataSource
      .getRepository(SensorRecordEntity)
      .createQueryBuilder('record')
      .select('MIN(record.created)', 'oldest')
      .getRawOne<{ oldest: Date | string | null }>();
    return row?.oldest ? toDate(row.oldest) : null;
  }

  private olderThan(manager: EntityManager, before: Date): SelectQueryBuilder<SensorRecordEntity> {
    return manager
      .createQueryBuilder(SensorRecordEntity, 'record')
      .select('record.nid', 'nid')
      .where('record.created < :before', { before })
      .orderBy('record.created', 'ASC')
      .addOrderBy('record.nid', 'ASC')
      .limit(PURGE_BATCH_SIZE);
  }

  /** Runs `batch` in transactions of its own until one finds less than a full batch, resting in between. */
  private async inBatches<B extends { rows: number }>(
    progress: PurgeProgress,
    batch: (manager: EntityManager) => Promise<B>,
    committed?: (batch: B) => void,
  ): Promise<number> {
    let total = 0;
    while (!progress.signal?.aborted) {
      const started = Date.now();
      const done = await runInTransaction(this.dataSource, batch);
      committed?.(done);
      total += done.rows;
      if (done.rows > 0) progress.onBatch?.(done.rows);
      if (done.rows < PURGE_BATCH_SIZE) break;
      await delay(Math.max(MIN_PAUSE_MS, PAUSE_PER_BATCH_TIME * (Date.now() - started)));
    }
    return total;
  }
}

/** mysql2 reads a DATETIME as a Date; SQLite gives TypeORM's UTC text. */
function toDate(value: Date | string): Date {
  return value instanceof Date ? value : new Date(`${value.replace(' ', 'T')}Z`);
}
