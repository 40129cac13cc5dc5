import { Controller, Inject, Post, UseGuards } from '@nestjs/common';
import { Authenticated } from '../../auth/authenticated.decorator.js';
import type { Answer } from '../../common/http/answer.js';
import type { AuthenticatedUser } from '../../auth/authenticated-user.js';
import { CurrentUser } from '../../auth/current-user.decorator.js';
import { APP_CONFIG } from '../../config/app-config.js';
import type { AppConfig } from '../../config/app-config.js';
import { type LogFields, RequestLog } from '../../logging/request-log.decorator.js';
import { sensorRecordUrl } from '../../serialization/hal-links.js';
import { AnswersJsonOnly } from '../../serialization/json-only.interceptor.js';
import { jsonAnswer } from '../../serialization/list-answers.js';
import { SensorRecordService } from '../sensor-record.service.js';
import { Submission } from '../submission/submission.decorators.js';
import { BatchRoomGuard } from './batches-in-flight.js';
import type { CreatedRecordDto } from './created-record.dto.js';
import { ParseSubmissionBatchPipe } from './parse-submission-batch.pipe.js';
import { CreateSensorRecordBatchDocs } from './sensor-record-batch.api-docs.js';
import { submissionBatchValidationPipe, type ValidatedSubmission } from './submission-batch-validation.pipe.js';

export const SENSOR_RECORD_BATCH_PATH = 'api-sensor/iot/sensor-records';

/**
 * Creates the records of a batch of submissions, as relays and gateways send what they buffered
 * offline: the same guard, permission and rules as one submission, every one stored or none.
 */
@Controller()
export class SensorRecordBatchController {
  private readonly baseUrl: string;

  constructor(
    private readonly sensorRecords: SensorRecordService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.baseUrl = config.baseUrl;
  }

  @Post(SENSOR_RECORD_BATCH_PATH)
  @CreateSensorRecordBatchDocs()
  @Authenticated({ requireIngest: true })
  @UseGuards(BatchRoomGuard)
  @AnswersJsonOnly()
  async create(
    @Submission(ParseSubmissionBatchPipe, submissionBatchValidationPipe) submissions: ValidatedSubmission[],
    @CurrentUser() user: AuthenticatedUser,
    @RequestLog() log: LogFields,
  ): Promise<Answer<Buffer>> {
    log({ reports: submissions.length });
    const created = await this.sensorRecords.createAll(submissions, user);
    const entries: CreatedRecordDto[] = created.map(({ nid, uuid }) => ({ nid, uuid, location: sensorRecordUrl(this.baseUrl, nid) }));
    // As exact bytes, so that its Content-Type is the single route's `application/json`, with no charset added.
    return jsonAnswer(JSON.stringify(entries));
  }
}
