import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, In, Repository } from 'typeorm';
import { CommitUnconfirmedError } from '../common/errors/commit-unconfirmed.error.js';
import { CLOCK, type Clock } from '../common/time/clock.js';
import { UserEntity } from '../auth/users/user.entity.js';
import { APP_CONFIG } from '../config/app-config.js';
import type { AppConfig } from '../config/app-config.js';
import { MetricsService } from '../metrics/metrics.service.js';
import type { CreateSensorRecordDto } from './dto/create-sensor-record.dto.js';
import { SensorRecordEntity } from './sensor-record.entity.js';
import { toSensorRecordModel } from './sensor-record.mapper.js';
import { SENSOR_REPORT_BUNDLE, type SensorRecordModel, type UserReference } from '../serialization/sensor-record.model.js';
import { SensorRecordWriter } from './sensor-record-writer.js';
import { newSensorRecordRow, type UplinkOrigin } from './new-sensor-record.row.js';

@Injectable()
export class SensorRecordService {
  private cachedBundleUuid?: string;

  constructor(
    @InjectRepository(SensorRecordEntity) private readonly records: Repository<SensorRecordEntity>,
    @InjectRepository(UserEntity) private readonly users: Repository<UserEntity>,
    // Only for the bundle's row in `node_type` (NodeTypeEntity), read once with the query builder.
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: MetricsService,
    private readonly writer: SensorRecordWriter,
    // The creation instant is `changed`, which the feed pages by and sensors measure silence from.
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * Stores a validated submission as a new sensor record; resolves only once the row is committed. A
   * record made from a network-server uplink that is stored already is refused with DuplicateUplinkError.
   */
  async create(
    submission: CreateSensorRecordDto,
    author: UserReference,
    requestBody: string,
    uplink?: UplinkOrigin,
  ): Promise<SensorRecordModel> {
    const bundleUuid = await this.bundleUuid();
    const row = newSensorRecordRow(submission, {
      uid: author.uid,
      now: new Date(this.clock.now()),
      siteTimezone: this.config.siteTimezone,
      requestBody,
      uplink,
    });
    const nid = await this.writer.write(row).catch((error: unknown) => {
      if (error instanceof CommitUnconfirmedError) this.metrics.recordUnconfirmed();
      throw error;
    });
    this.metrics.recordCreated(row.fieldEvent);
    const reference: UserReference = { uid: author.uid, uuid: author.uuid };
    return toSensorRecordModel({ ...row, nid, vid: nid }, { owner: reference, revisionUser: reference, bundleUuid });
  }

  /**
   * Stores validated submissions as new sensor records, all in one transaction or none; resolves with
   * their nids and uuids, in the submissions' order, only once they are committed.
   */
  async createAll(
    submissions: ReadonlyArray<{ submission: CreateSensorRecordDto; requestBody: string }>,
    author: UserReference,
  ): Promise<Array<{ nid: number; uuid: string }>> {
    const { uid } = author;
    const now = new Date(this.clock.now());
    const { siteTimezone } = this.config;
    // Each context written out rather than spread from a shared one: V8 builds an object literal that
    // starts with a spread slowly, and a batch builds one a report (docs/benchmark.md#where-the-time-goes).
    const rows = submissions.map(({ submission, requestBody }) => newSensorRecordRow(submission, { uid, now, siteTimezone, requestBody }));
    const nids = await this.writer.writeTogether(rows).catch((error: unknown) => {
      if (error instanceof CommitUnconfirmedError) this.metrics.recordUnconfirmed(rows.length);
      throw error;
    });
    for (const row of rows) this.metrics.recordCreated(row.fieldEvent);
    return rows.map((row, index) => ({ nid: nids[index]!, uuid: row.uuid }));
  }

  async findByNid(nid: number): Promise<SensorRecordModel | null> {
    const row = await this.records.findOneBy({ nid });
    return row ? (await this.toModels([row]))[0]! : null;
  }

  /** The record made from the uplink with this key, if one is stored. */
  async findByUplinkKey(uplinkKey: string): Promise<SensorRecordModel | null> {
    const row = await this.records.findOneBy({ uplinkKey });
    return row ? (await this.toModels([row]))[0]! : null;
  }

  /**
   * Stored rows as the records the Serialization module renders: the one mapping every read uses
   * (`GET /node/{nid}`, a sensor's recent records, the records feed), so that each renders a record
   * identically. The users the rows name are read in one query.
   */
  async toModels(rows: SensorRecordEntity[]): Promise<SensorRecordModel[]> {
    if (rows.length === 0) return [];
    const uids = [...new Set(rows.flatMap((row) => [row.uid, row.revisionUid]))];
    const users = await this.users.find({ select: { uid: true, uuid: true }, where: { uid: In(uids) } });
    const uuidOf = new Map(users.map((user) => [user.uid, user.uuid]));
    const bundleUuid = await this.bundleUuid();
    const reference = (row: SensorRecordEntity, uid: number): UserReference => {
      const uuid = uuidOf.get(uid);
      if (uuid === undefined) throw new Error(`Sensor record ${row.nid} refers to missing user ${uid}`);
      return { uid, uuid };
    };
    return rows.map((row) =>
      toSensorRecordModel(row, { owner: reference(row, row.uid), revisionUser: reference(row, row.revisionUid), bundleUuid }),
    );
  }

  /** A device's latest records of one owner: by device time, then nid, newest first. */
  async recentOf(uid: number, devId: string, count: number): Promise<SensorRecordModel[]> {
    if (count === 0) return [];
    const rows = await this.records
      .createQueryBuilder('record')
      .where('record.devId = :devId', { devId })
      .andWhere('record.uid = :uid', { uid })
      .orderBy('record.fieldDate', 'DESC')
      .addOrderBy('record.nid', 'DESC')
      .limit(count)
      .getMany();
    return this.toModels(rows);
  }

  /** Seeded once per installation by the migration; it never changes, so it is read once. */
  private async bundleUuid(): Promise<string> {
    this.cachedBundleUuid ??= await this.dataSource
      .createQueryBuilder()
      .select('node_type.uuid', 'uuid')
      .from('node_type', 'node_type')
      .where('node_type.type = :type', { type: SENSOR_REPORT_BUNDLE })
      .getRawOne<{ uuid: string }>()
      .then((found) => {
        if (!found) throw new Error('The sensor_report node type is missing; run the migrations');
        return found.uuid;
      });
    return this.cachedBundleUuid;
  }
}
