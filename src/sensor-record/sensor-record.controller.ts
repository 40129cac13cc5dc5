import { Controller, Get, HttpStatus, Param, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import { Authenticated } from '../auth/authenticated.decorator.js';
import type { AuthenticatedUser } from '../auth/authenticated-user.js';
import { CurrentUser } from '../auth/current-user.decorator.js';
import { ApiException } from '../common/errors/api-exception.js';
import { noRouteMessage } from '../common/http/route-messages.js';
import { type LogFields, RequestLog } from '../logging/request-log.decorator.js';
import { RenderSensorRecord } from '../serialization/render-sensor-record.interceptor.js';
import type { SensorRecordModel } from '../serialization/sensor-record.model.js';
import { CreateSensorRecordDto } from './dto/create-sensor-record.dto.js';
import { CreateSensorRecordDocs, ReadSensorRecordDocs } from './sensor-record.api-docs.js';
import { RECORD_NOT_FOUND_MESSAGE, VIEW_DENIED_MESSAGE } from './sensor-record.messages.js';
import { SensorRecordService } from './sensor-record.service.js';
import { ParseSubmissionPipe } from './submission/parse-submission.pipe.js';
import { Submission, SubmissionText } from './submission/submission.decorators.js';
import { submissionValidationPipe } from './validation/submission-validation.pipe.js';

export const SENSOR_RECORD_PATH = 'api-sensor/iot/sensor-record';

/**
 * Creates sensor records, and reads one back for the user who created it (Drupal's node route). Both
 * return the record; RenderSensorRecord answers it in the negotiated format.
 */
@Controller()
export class SensorRecordController {
  constructor(private readonly sensorRecords: SensorRecordService) {}

  @Post(SENSOR_RECORD_PATH)
  @CreateSensorRecordDocs()
  @Authenticated({ requireIngest: true })
  @RenderSensorRecord({ created: true })
  async create(
    @Submission(ParseSubmissionPipe, submissionValidationPipe) submission: CreateSensorRecordDto,
    @SubmissionText() requestBody: string,
    @CurrentUser() user: AuthenticatedUser,
    @RequestLog() log: LogFields,
  ): Promise<SensorRecordModel> {
    log({ dev_id: submission.dev_id });
    return this.sensorRecords.create(submission, user, requestBody);
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
