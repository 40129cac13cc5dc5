import { Inject, Injectable, type PipeTransform } from '@nestjs/common';
import type { Request } from 'express';
import { ApiException } from '../../common/errors/api-exception.js';
import { DEFAULT_BODY_LIMIT } from '../../common/http/route-messages.js';
import { APP_CONFIG } from '../../config/app-config.js';
import type { AppConfig } from '../../config/app-config.js';
import { negotiateFormat } from '../../serialization/format-negotiation.js';
import { readFormatParameter } from '../../serialization/format-parameter.js';
import { sensorRecordTypeHref } from '../../serialization/hal-links.js';
import type { ResponseFormat } from '../../serialization/response-format.js';
import type { CreateSensorRecordDto } from '../dto/create-sensor-record.dto.js';
import { validSubmission } from '../validation/submission-validation.pipe.js';
import { foreignTypeLink, readJsonObject, unknownTypeLinkMessage } from './json-submission.js';
import { rawSubmission } from './submission.decorators.js';

/** The size limit of one submission's body, as the submission body middleware is given it and as its 413 names it. */
export const SUBMISSION_BODY_LIMIT = DEFAULT_BODY_LIMIT;

/** A submission the route may store: its members as the DTO, the format to answer in, and the body as text. */
export interface ReceivedSubmission {
  format: ResponseFormat;
  submission: CreateSensorRecordDto;
  /** The request body as text, kept with the record. */
  text: string;
}

/**
 * Everything the single route checks before storing a submission, in the order of
 * docs/interface.md#order-of-checks: the answer's format (`_format`, then Accept; 406), the body's
 * reading, size, content type, character set, JSON syntax, nesting and HAL type link (in Drupal's words
 * where it has them), then its members (`validSubmission`, 406). One pipe, given the request
 * (`@SubmittedRequest`), rather than a parameter per check: each parameter costs the route Nest's
 * parameter machinery on every request (docs/benchmark.md#choices-made-by-measurement).
 */
@Injectable()
export class ParseSubmissionPipe implements PipeTransform<Request, Promise<ReceivedSubmission>> {
  private readonly typeHref: string;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.typeHref = sensorRecordTypeHref(config.baseUrl);
  }

  async transform(request: Request): Promise<ReceivedSubmission> {
    const format = negotiateFormat(readFormatParameter(request.originalUrl), request.headers.accept);
    const raw = rawSubmission(request);
    const document = readJsonObject(raw, SUBMISSION_BODY_LIMIT.shown);
    const href = foreignTypeLink(document, this.typeHref);
    if (href !== undefined) throw new ApiException(422, unknownTypeLinkMessage(href, this.typeHref));
    // readJsonObject has refused a body that is not UTF-8 text.
    return { format, submission: await validSubmission(document), text: raw.text! };
  }
}
