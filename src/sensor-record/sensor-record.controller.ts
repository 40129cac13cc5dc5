import { Controller, Get, HttpStatus, Param, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import { Authenticated } from '../auth/authenticated.decorator.js';
import type { AuthenticatedUser } from '../auth/authenticated-user.js';
import { CurrentUser } from '../auth/current-user.decorator.js';
import { ApiException } from '../common/errors/api-exception.js';
import { noRouteMessage } from '../common/http/route-messages.js';
import { type LogFields, RequestLog } from '../logging/request-log.decorator.js';
import type { Answer } from '../common/http/answer.js';
import { RenderSensorRecord } from '../serialization/render-sensor-record.interceptor.js';
import { SerializationService } from '../serialization/serialization.service.js';
import type { SensorRecordModel } from '../serialization/sensor-record.model.js';
import { CreateSensorRecordDocs, ReadSensorRecordDocs } from './sensor-record.api-docs.js';
import { RECORD_NOT_FOUND_MESSAGE, VIEW_DENIED_MESSAGE } from './sensor-record.messages.js';
import { SensorRecordService } from './sensor-record.service.js';
import { ParseSubmissionPipe, type ReceivedSubmission } from './submission/parse-submission.pipe.js';
import { SubmittedRequest } from './submission/submission.decorators.js';

export const SENSOR_RECORD_PATH = 'api-sensor/iot/sensor-record';

/**
 * Creates sensor records, and reads one back for the user who created it (Drupal's node route), in
 * the negotiated format: a creation answers as every submission does (`submissionAnswer`), a read
 * through RenderSensorRecord (its ETag, and 304).
 */
@Controller()
export class SensorRecordController {
  constructor(
    private readonly sensorRecords: SensorRecordService,
    private readonly serialization: SerializationService,
  ) {}

  @Post(SENSOR_RECORD_PATH)
  @CreateSensorRecordDocs()
  @Authenticated({ requireIngest: true })
  async create(
    @SubmittedRequest(ParseSubmissionPipe) received: ReceivedSubmission,
    @CurrentUser() user: AuthenticatedUser,
    @RequestLog() log: LogFields,
  ): Promise<Answer<Buffer>> {
    const { submission, format, text } = received;
    log({ dev_id: submission.dev_id });
    return this.serialization.submissionAnswer(await this.sensorRecords.create(submission, user, text), format);
  }

  @Get('node/:nid')
  @ReadSensorRecordDocs()
  @Authenticated({ deniedMessage: VIEW_DENIED_MESSAGE })
  @RenderSensorRecord()
  async show(
    @Param('nid') nidParameter: string,
    @CurrentUser() user: AuthenticatedUser,
    @Req() request: Request,
  ): Promise<SensorRecordModel> {
    // Drupal's node route only matches digits; anything else is no route at all.
    if (!/^\d+$/.test(nidParameter)) throw new ApiException(HttpStatus.NOT_FOUND, noRouteMessage(request.method, request.path));
    const nid = Number(nidParameter);
    const record = Number.isSafeInteger(nid) ? await this.sensorRecords.findByNid(nid) : null;
    if (!record) throw new ApiException(HttpStatus.NOT_FOUND, RECORD_NOT_FOUND_MESSAGE);
    if (record.owner.uid !== user.uid) throw new ApiException(HttpStatus.FORBIDDEN, VIEW_DENIED_MESSAGE);
    return record;
  }
}
