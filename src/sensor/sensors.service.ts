import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository, SelectQueryBuilder } from 'typeorm';
import { sensorAlertFacts, type SensorAlertFacts } from '../alerts/sensor-alert-facts.js';
import { CLOCK, type Clock } from '../common/time/clock.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { readInChunks } from '../database/read-in-chunks.js';
import type { SensorRecordModel } from '../serialization/sensor-record.model.js';
import { SensorRecordService } from '../sensor-record/sensor-record.service.js';
import type { ListSensorsQueryDto } from './dto/list-sensors-query.dto.js';
import { SensorEntity } from './sensor.entity.js';
import { overdueCutoff, stateCondition } from './sensor-state.js';
import { toSensorView, type SensorView } from './sensor.view.js';

/** Rows read at a time for a streamed list; each chunk has a database deadline of its own. */
const CHUNK_SIZE = 1000;
/** Spellings of a dev_id differing only in case that a 404 names; more would be a list, not a hint. */
const CASE_VARIANTS_NAMED = 5;

export interface SensorPage {
  sensors: SensorView[];
  /** The dev_id to start the next page after, when there are more. */
  nextAfter: string | null;
}

/** The caller's sensors and their state (docs/interface.md#sensors): each user sees only their own. */
@Injectable()
export class SensorsService {
  constructor(
    @InjectRepository(SensorEntity) private readonly sensors: Repository<SensorEntity>,
    private readonly records: SensorRecordService,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** One page of at most `limit` sensors in dev_id order, and where the next begins. */
  async page(uid: number, query: ListSensorsQueryDto, limit: number): Promise<SensorPage> {
    const cutoff = this.cutoff();
    const rows = await this.select(uid, query, cutoff, query.after)
      .limit(limit + 1)
      .getMany();
    const more = rows.length > limit;
    const facts = await this.factsOf(uid);
    const sensors = rows.slice(0, limit).map((row) => this.view(row, facts, cutoff));
    return { sensors, nextAfter: more ? sensors.at(-1)!.dev_id : null };
  }

  /** Every matching sensor (up to `limit`), read a chunk at a time as the caller takes them. */
  async stream(uid: number, query: ListSensorsQueryDto, limit = Infinity): Promise<AsyncGenerator<SensorView[]>> {
    const cutoff = this.cutoff();
    const facts = await this.factsOf(uid);
    let read = 0;
    return readInChunks<SensorView>(
      async (previous) => {
        const size = Math.min(CHUNK_SIZE, limit - read);
        if (size <= 0) return [];
        const rows = await this.select(uid, query, cutoff, previous?.dev_id ?? query.after)
          .limit(size)
          .getMany();
        read += rows.length;
        return rows.map((row) => this.view(row, facts, cutoff));
      },
      CHUNK_SIZE,
      this.config.database.requestTimeoutMs,
    );
  }

  /** The caller's sensor with that dev_id, and its latest records; null when the caller has none. */
  async find(uid: number, devId: string, recordCount: number): Promise<{ sensor: SensorView; records: SensorRecordModel[] } | null> {
    const row = await this.sensors.findOneBy({ uid, devId });
    if (!row) return null;
    return {
      sensor: this.view(row, await this.factsOf(uid, [row.devId]), this.cutoff()),
      records: await this.records.recentOf(uid, row.devId, recordCount),
    };
  }

  /** The caller's dev_ids equal to `devId` but for letter case (a few at most), for the 404 to name. */
  async caseVariants(uid: number, devId: string): Promise<string[]> {
    const rows = await this.sensors
      .createQueryBuilder('sensor')
      .select('sensor.devId', 'devId')
      .where('sensor.uid = :uid', { uid })
      .andWhere('LOWER(sensor.devId) = LOWER(:devId)', { devId })
      .andWhere('sensor.devId <> :devId', { devId })
      .orderBy('sensor.devId', 'ASC')
      .limit(CASE_VARIANTS_NAMED)
      .getRawMany<{ devId: string }>();
    return rows.map((row) => row.devId);
  }

  private select(uid: number, query: ListSensorsQueryDto, cutoff: Date, after: string | undefined): SelectQueryBuilder<SensorEntity> {
    const select = this.sensors.createQueryBuilder('sensor').where('sensor.uid = :uid', { uid });
    if (query.state !== undefined) select.andWhere(stateCondition(query.state, 'sensor'), { cutoff });
    if (query.sprung !== undefined) select.andWhere('sensor.sprung = :sprung', { sprung: query.sprung });
    if (after !== undefined) select.andWhere('sensor.devId > :after', { after });
    return select.orderBy('sensor.devId', 'ASC');
  }

  private cutoff(): Date {
    return overdueCutoff(this.clock.now(), this.config.sensors.heartbeatGraceSeconds);
  }

  private factsOf(uid: number, devIds?: string[]): Promise<(devId: string) => SensorAlertFacts> {
    return sensorAlertFacts(this.sensors.manager, uid, devIds);
  }

  private view(row: SensorEntity, facts: (devId: string) => SensorAlertFacts, cutoff: Date): SensorView {
    return toSensorView(row, facts(row.devId), cutoff, this.config.siteTimezone);
  }
}
