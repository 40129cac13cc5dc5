import { Inject, Injectable, type PipeTransform } from '@nestjs/common';
import { ApiException } from '../../common/errors/api-exception.js';
import { DEFAULT_BODY_LIMIT } from '../../common/http/route-messages.js';
import { APP_CONFIG } from '../../config/app-config.js';
import type { AppConfig } from '../../config/app-config.js';
import { sensorRecordTypeHref } from '../../serialization/hal-links.js';
import { foreignTypeLink, readJsonObject, unknownTypeLinkMessage } from './json-submission.js';
import type { RawSubmission } from './submission.decorators.js';

/** The size limit of one submission's body, as the submission body middleware is given it and as its 413 names it. */
export const SUBMISSION_BODY_LIMIT = DEFAULT_BODY_LIMIT;

/** Size, content type, character set, JSON syntax, nesting and the HAL type link, in Drupal's words where it has them. */
@Injectable()
export class ParseSubmissionPipe implements PipeTransform<RawSubmission, Record<string, unknown>> {
  private readonly typeHref: string;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.typeHref = sensorRecordTypeHref(config.baseUrl);
  }

  transform(submission: RawSubmission): Record<string, unknown> {
    const document = readJsonObject(submission, SUBMISSION_BODY_LIMIT.shown);
    const href = foreignTypeLink(document, this.typeHref);
    if (href !== undefined) throw new ApiException(422, unknownTypeLinkMessage(href, this.typeHref));
    return document;
  }
}
