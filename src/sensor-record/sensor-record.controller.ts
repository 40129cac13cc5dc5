import { Controller, Get, Headers, HttpStatus, Inject, Param, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Authenticated } from '../auth/authenticated.decorator.js';
import type { AuthenticatedUser } from '../auth/authenticated-user.js';
import { CurrentUser } from '../auth/current-user.decorator.js';
import { ApiException } from '../common/errors/api-exception.js';
import { APP_CONFIG } from '../config/app-config.js';
import type { AppConfig } from '../config/app-config.js';
import { addLogContext } from '../logging/log-context.js';
import { type FormatParameter, FormatQuery } from '../serialization/format-parameter.js';
import { SerializationService } from '../serialization/serialization.service.js';
import { CreateSensorRecordDto } from './dto/create-sensor-record.dto.js';
import { CreateSensorRecordDocs, ReadSensorRecordDocs } from './sensor-record.api-docs.js';
import { SensorRecordService } from './sensor-record.service.js';
import { ParseSubmissionPipe } from './submission/parse-submission.pipe.js';
import { Submission, SubmissionText } from './submission/submission.decorators.js';
import { submissionValidationPipe } from './validation/submission-validation.pipe.js';

export const SENSOR_RECORD_PATH = 'api-sensor/iot/sensor-record';

// Drupal's fallback text when entity access denies the `view` operation.
const VIEW_DENIED_MESSAGE = 'You are not authorized to view this node entity of bundle sensor_report.';

/** Creates sensor records, and reads one back for the user who created it (Drupal's node route). */
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
    @Submission(ParseSubmissionPipe, submissionValidationPipe) submission: CreateSensorRecordDto,
    @SubmissionText() requestBody: string,
    @CurrentUser() user: AuthenticatedUser,
    @FormatQuery() formatParameter: FormatParameter,
    @Headers('accept') accept: string | undefined,
    @Res() response: Response,
  ): Promise<void> {
    addLogContext(response, { dev_id: submission.dev_id });
    const format = this.serialization.negotiate(formatParameter, accept);
    const record = await this.sensorRecords.create(submission, user, requestBody);
    const rendered = this.serialization.render(record, format);
    response
      .status(201)
      .setHeader('Content-Type', rendered.contentType)
      .setHeader('Location', `${this.config.baseUrl}/node/${record.nid}`)
      .send(Buffer.from(rendered.body, 'utf8'));
  }

  @Get('node/:nid')
  @ReadSensorRecordDocs()
  @Authenticated({ deniedMessage: VIEW_DENIED_MESSAGE })
  async show(
    @Param('nid') nidParameter: string,
    @CurrentUser() user: AuthenticatedUser,
    @FormatQuery() formatParameter: FormatParameter,
    @Headers('accept') accept: string | undefined,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    // Drupal's node route only matches digits; anything else is no route at all.
    if (!/^\d+$/.test(nidParameter)) {
      throw new ApiException(HttpStatus.NOT_FOUND, `No route found for "${request.method} ${request.path}"`);
    }
    const format = this.serialization.negotiate(formatParameter, accept);
    const nid = Number(nidParameter);
    const record = Number.isSafeInteger(nid) ? await this.sensorRecords.findByNid(nid) : null;
    if (!record) {
      throw new ApiException(
        HttpStatus.NOT_FOUND,
        'The "node" parameter was not converted for the path "/node/{node}" (route name: "rest.entity.node.GET")',
      );
    }
    if (record.owner.uid !== user.uid) throw new ApiException(HttpStatus.FORBIDDEN, VIEW_DENIED_MESSAGE);
    const rendered = this.serialization.render(record, format);
    // Set on the raw response and sent as bytes, so Express adds no charset of its own.
    response.status(HttpStatus.OK).setHeader('Content-Type', rendered.contentType);
    response.send(Buffer.from(rendered.body, 'utf8'));
  }
}
