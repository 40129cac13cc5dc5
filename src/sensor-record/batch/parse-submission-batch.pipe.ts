import { Inject, Injectable, type PipeTransform } from '@nestjs/common';
import { ApiException } from '../../common/errors/api-exception.js';
import { APP_CONFIG } from '../../config/app-config.js';
import type { AppConfig } from '../../config/app-config.js';
import { sensorRecordTypeHref } from '../../serialization/hal-links.js';
import { isPlainObject } from '../validation/unwrap-member.js';
import { foreignTypeLink, MAX_NESTING_DEPTH, readJsonBody, unknownTypeLinkMessage } from '../submission/json-submission.js';
import type { RawSubmission } from '../submission/submission.decorators.js';
import { arrayItems } from './array-item-texts.js';

/** Submissions one batch may hold: what a relay buffers in a few hours offline, and one transaction stores comfortably. */
export const MAX_BATCH_SUBMISSIONS = 1000;

/**
 * The size limit of a batch's body: a thousand submissions of 2 KiB each (a network server's, with
 * its gateways, is 0.4–1 KiB). What one batch costs in memory while it is parsed and validated stays within
 * a few tens of MiB of the capped heap.
 */
export const BATCH_BODY_LIMIT = { bytes: '2mb', shown: '2 MiB' } as const;

/** 422 for a body that is JSON but not a list. */
export const NOT_A_LIST_MESSAGE = 'The request body must be a JSON array of reports.';

/** A submission of a batch as parsed, and its own text in the body, which its record keeps as `request_body`. */
export interface SubmittedReport {
  report: Record<string, unknown>;
  text: string;
}

/**
 * The batch's body as bytes and as JSON, as for one submission; then its shape: a list of 1 to
 * MAX_BATCH_SUBMISSIONS submissions, each an object nested no deeper than one submission may be, whose
 * type link, if any, names sensor records. The first that fails answers, named by its index. (The
 * answers call them reports, as the interface does: docs/interface.md#batches-of-reports.)
 */
@Injectable()
export class ParseSubmissionBatchPipe implements PipeTransform<RawSubmission, SubmittedReport[]> {
  private readonly typeHref: string;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.typeHref = sensorRecordTypeHref(config.baseUrl);
  }

  transform(submission: RawSubmission): SubmittedReport[] {
    const document = readJsonBody(submission, BATCH_BODY_LIMIT.shown);
    if (!Array.isArray(document)) throw new ApiException(422, NOT_A_LIST_MESSAGE);
    if (document.length === 0) throw new ApiException(422, 'The request body must hold at least one report.');
    if (document.length > MAX_BATCH_SUBMISSIONS) {
      throw new ApiException(413, `The request body holds ${document.length} reports; at most ${MAX_BATCH_SUBMISSIONS} are taken at once.`);
    }
    // readJsonBody has read the text as JSON, so it is there. Each report's depth is read from its text,
    // where a member given twice counts with both its values.
    const items = arrayItems(submission.text!);
    if (items.length !== document.length) throw new Error(`${items.length} texts cut for ${document.length} reports`);
    document.forEach((submission: unknown, index) => {
      if (items[index]!.depth > MAX_NESTING_DEPTH) {
        throw new ApiException(422, `[${index}]: The report is nested deeper than ${MAX_NESTING_DEPTH} levels.`);
      }
      if (!isPlainObject(submission)) throw new ApiException(422, `[${index}]: The report must be a JSON object.`);
      const href = foreignTypeLink(submission, this.typeHref);
      if (href !== undefined) throw new ApiException(422, `[${index}]: ${unknownTypeLinkMessage(href, this.typeHref)}`);
    });
    return (document as Record<string, unknown>[]).map((report, index) => ({ report, text: items[index]!.text }));
  }
}
