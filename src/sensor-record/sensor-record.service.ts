import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, In, Repository } from 'typeorm';
import type { AuthenticatedUser } from '../auth/authenticated-user.js';
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
import { newSensorRecordRow } from './new-sensor-record.row.js';

@Injectable()
export class SensorRecordService {
  private cachedBundleUuid?: string;

  constructor(
    @InjectRepository(SensorRecordEntity) private readonly records: Repository<SensorRecordEntity>,
    @InjectRepository(UserEntity) private readonly users: Repository<UserEntity>,
    // Only for the bundle's row in `node_type`, a table of Drupal's that has no entity here.
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: MetricsService,
    private readonly writer: SensorRecordWriter,
    // The creation instant is `changed`, which the feed pages by and sensors measure silence from.
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Stores a validated submission as a new sensor record; resolves only once the row is committed. */
  async create(submission: CreateSensorRecordDto, author: AuthenticatedUser, requestBody: string): Promise<SensorRecordModel> {
    const bundleUuid = await this.bundleUuid();
    const row = newSensorRecordRow(submission, {
      uid: author.uid,
      now: new Date(this.clock.now()),
      siteTimezone: this.config.siteTimezone,
      requestBody,
    });
    const nid = await this.writer.write(row).catch((error: unknown) => {
      if (error instanceof CommitUnconfirmedError) this.metrics.recordUnconfirmed();
      throw error;
    });
    this.metrics.recordCreated(row.fieldEvent);
    const reference: UserReference = { uid: author.uid, uuid: author.uuid };
    return toSensorRecordModel({ ...row, nid, vid: nid }, { owner: reference, revisionUser: reference, bundleUuid });
  }

  async findByNid(nid: number): Promise<SensorRecordModel | null> {
    const row = await this.records.findOneBy({ nid });
    if (!row) return null;
    const users = await this.users.find({ select: { uid: true, uuid: true }, where: { uid: In([row.uid, row.revisionUid]) } });
    const reference = (uid: number): UserReference => {
      const user = users.find((candidate) => candidate.uid === uid);
      if (!user) throw new Error(`Sensor record ${nid} refers to missing user ${uid}`);
      return { uid, uuid: user.uuid };
    };
    return toSensorRecordModel(row, {
      owner: reference(row.uid),
      revisionUser: reference(row.revisionUid),
      bundleUuid: await this.bundleUuid(),
    });
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
