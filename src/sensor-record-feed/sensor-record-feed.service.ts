import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository, SelectQueryBuilder } from 'typeorm';
import { CLOCK, type Clock } from '../common/time/clock.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { readInChunks } from '../database/read-in-chunks.js';
import type { SensorRecordModel } from '../serialization/sensor-record.model.js';
import { SensorRecordEntity } from '../sensor-record/sensor-record.entity.js';
import { SensorRecordService } from '../sensor-record/sensor-record.service.js';
import { afterHorizon, type FeedPoint, settledUntil } from './feed-point.js';

/** Records read at a time; each chunk has a database deadline of its own. */
const CHUNK_SIZE = 500;

/** One answer of the feed: its records, read as they are taken, and where to go on. */
export interface FeedPage {
  records: AsyncGenerator<SensorRecordModel[]>;
  next: FeedPoint;
  /** Whether the next page already holds records. */
  more: boolean;
}

/**
 * The caller's records after a point, in (changed, nid) order, read by keyset (never OFFSET) and only
 * up to the settled horizon, so that a reader going from page to page neither skips nor repeats a
 * record (docs/interface.md#paging-and-its-guarantee).
 */
@Injectable()
export class SensorRecordFeedService {
  constructor(
    @InjectRepository(SensorRecordEntity) private readonly rows: Repository<SensorRecordEntity>,
    private readonly records: SensorRecordService,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** At most `limit` records after `start`; without a limit, every settled record after it. */
  async read(uid: number, start: FeedPoint, limit: number | undefined): Promise<FeedPage> {
    const { requestTimeoutMs } = this.config.database;
    const horizon = settledUntil(this.clock.now(), requestTimeoutMs);
    let end: FeedPoint | undefined;
    let next = afterHorizon(start, horizon);
    let more = false;
    let count: number | undefined;
    if (limit !== undefined) {
      // The keys alone first (index only), so that the answer can name the next page before its records.
      const keys = await this.after(uid, start, horizon)
        .select(['record.nid', 'record.changed'])
        .limit(limit + 1)
        .getMany();
      more = keys.length > limit;
      count = Math.min(keys.length, limit);
      end = count > 0 ? point(keys[count - 1]!) : undefined;
      if (more) next = end!;
    }
    const records = await readInChunks<SensorRecordModel>(
      async (previous) => {
        if (count === 0) return [];
        const read = this.after(uid, previous ? point(previous) : start, horizon);
        if (end) {
          read.andWhere('record.changed <= :endChanged AND (record.changed < :endChanged OR record.nid <= :endNid)', {
            endChanged: end.changed,
            endNid: end.nid,
          });
        }
        return this.records.toModels(await read.limit(CHUNK_SIZE).getMany());
      },
      CHUNK_SIZE,
      requestTimeoutMs,
    );
    return { records, next, more };
  }

  /** The caller's settled records after `from`, in feed order. */
  private after(uid: number, from: FeedPoint, horizon: Date): SelectQueryBuilder<SensorRecordEntity> {
    // `changed >= :from` bounds the index range; the OR only drops the first second's records up to `from`.
    return this.rows
      .createQueryBuilder('record')
      .where('record.uid = :uid', { uid })
      .andWhere('record.changed >= :fromChanged', { fromChanged: from.changed })
      .andWhere('(record.changed > :fromChanged OR record.nid > :fromNid)', { fromNid: from.nid })
      .andWhere('record.changed <= :horizon', { horizon })
      .orderBy('record.changed', 'ASC')
      .addOrderBy('record.nid', 'ASC');
  }
}

function point(row: Pick<SensorRecordEntity, 'changed' | 'nid'>): FeedPoint {
  return { changed: row.changed, nid: row.nid };
}
