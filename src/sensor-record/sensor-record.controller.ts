import { Controller, Headers, Inject, Post, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Authenticated } from '../auth/authenticated.decorator.js';
import type { AuthenticatedUser } from '../auth/authenticated-user.js';
import { CurrentUser } from '../auth/current-user.decorator.js';
import { APP_CONFIG } from '../config/app-config.js';
import type { AppConfig } from '../config/app-config.js';
import { addLogContext } from '../logging/log-context.js';
import { type FormatParameter, FormatQuery } from '../serialization/format-parameter.js';
import { SerializationService } from '../serialization/serialization.service.js';
import { SensorReportDto } from './dto/sensor-report.dto.js';
import { CreateSensorRecordDocs } from './sensor-record.api-docs.js';
import { SensorRecordService } from './sensor-record.service.js';
import { ParseSubmissionPipe } from './submission/parse-submission.pipe.js';
import { Submission, SubmissionText } from './submission/submission.decorators.js';
import { sensorReportValidationPipe } from './validation/sensor-report-validation.pipe.js';

export const SENSOR_RECORD_PATH = 'api-sensor/iot/sensor-record';

@Controller()
export class SensorRecordController {
  constructor(
    private readonly sensorRecords: SensorRecordService,
    private readonly serialization: SerializationService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post(SENSOR_RECORD_PATH)
  @CreateSensorRecordDocs()
  @Authenticated({ requireIngest: true })
  async create(
    @Submission(ParseSubmissionPipe, sensorReportValidationPipe) report: SensorReportDto,
    @SubmissionText() requestBody: string,
    @CurrentUser() user: AuthenticatedUser,
    @FormatQuery() formatParameter: FormatParameter,
    @Headers('accept') accept: string | undefined,
    @Res() response: Response,
  ): Promise<void> {
    addLogContext(response, { dev_id: report.dev_id });
    const format = this.serialization.negotiate(formatParameter, accept);
    const record = await this.sensorRecords.create(report, user, requestBody);
    const rendered = this.serialization.render(record, format);
    response
      .status(201)
      .setHeader('Content-Type', rendered.contentType)
      .setHeader('Location', `${this.config.baseUrl}/node/${record.nid}`)
      .send(Buffer.from(rendered.body, 'utf8'));
  }
}
