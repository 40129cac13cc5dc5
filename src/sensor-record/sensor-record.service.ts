import { Inject, Injectable } from '@nestjs/common';
import { DataSource, In } from 'typeorm';
import type { AuthenticatedUser } from '../auth/authenticated-user.js';
import { CommitUnconfirmedError } from '../common/errors/commit-unconfirmed.error.js';
import { UserEntity } from '../auth/users/user.entity.js';
import { APP_CONFIG } from '../config/app-config.js';
import type { AppConfig } from '../config/app-config.js';
import { MetricsService } from '../metrics/metrics.service.js';
import type { SensorReportDto } from './dto/sensor-report.dto.js';
import { SensorReportEntity } from './sensor-report.entity.js';
import { toSensorReportModel } from './sensor-report.mapper.js';
import type { SensorReportModel, UserReference } from './sensor-report.model.js';
import { SensorReportWriter } from './sensor-report-writer.js';
import { newSensorReportRow } from './sensor-report.row.js';

@Injectable()
export class SensorRecordService {
  private bundleUuid?: string;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: MetricsService,
    private readonly writer: SensorReportWriter,
  ) {}

  /** Stores a validated report; resolves only once the row is committed. */
  async create(report: SensorReportDto, author: AuthenticatedUser, requestBody: string): Promise<SensorReportModel> {
    const bundleUuid = await this.sensorReportBundleUuid();
    const row = newSensorReportRow(report, {
      uid: author.uid,
      now: new Date(),
      siteTimezone: this.config.siteTimezone,
      requestBody,
    });
    const nid = await this.writer.write(row).catch((error: unknown) => {
      if (error instanceof CommitUnconfirmedError) this.metrics.recordUnconfirmed();
      throw error;
    });
    this.metrics.recordCreated(row.fieldEvent);
    const reference: UserReference = { uid: author.uid, uuid: author.uuid };
    return toSensorReportModel({ ...row, nid, vid: nid }, { owner: reference, revisionUser: reference, bundleUuid });
  }

  async findModel(nid: number): Promise<SensorReportModel | null> {
    const row = await this.dataSource.getRepository(SensorReportEntity).findOneBy({ nid });
    if (!row) return null;
    const users = await this.dataSource
      .getRepository(UserEntity)
      .find({ select: { uid: true, uuid: true }, where: { uid: In([row.uid, row.revisionUid]) } });
    const reference = (uid: number): UserReference => {
      const user = users.find((candidate) => candidate.uid === uid);
      if (!user) throw new Error(`Sensor report ${nid} refers to missing user ${uid}`);
      return { uid, uuid: user.uuid };
    };
    return toSensorReportModel(row, {
      owner: reference(row.uid),
      revisionUser: reference(row.revisionUid),
      bundleUuid: await this.sensorReportBundleUuid(),
    });
  }

  /** Seeded once per installation by the migration; it never changes, so it is read once. */
  private async sensorReportBundleUuid(): Promise<string> {
    this.bundleUuid ??= await this.dataSource
      .createQueryBuilder()
      .select('node_type.uuid', 'uuid')
      .from('node_type', 'node_type')
      .where('node_type.type = :type', { type: 'sensor_report' })
      .getRawOne<{ uuid: string }>()
      .then((found) => {
        if (!found) throw new Error('The sensor_report node type is missing; run the migrations');
        return found.uuid;
      });
    return this.bundleUuid;
  }
}
