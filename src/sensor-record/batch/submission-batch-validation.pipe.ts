import type { PipeTransform } from '@nestjs/common';
import { ApiException } from '../../common/errors/api-exception.js';
import type { CreateSensorRecordDto } from '../dto/create-sensor-record.dto.js';
import { checkSubmission } from '../validation/submission-validation.pipe.js';
import { describeViolations, violationReport } from '../validation/validation-failure.js';
import type { SubmittedReport } from './parse-submission-batch.pipe.js';

/** A submission of a batch that passed validation, with the text its record keeps as `request_body`. */
export interface ValidatedSubmission {
  submission: CreateSensorRecordDto;
  /** The submission's own text in the batch's body (docs/interface.md#batches-of-reports). */
  requestBody: string;
}

/**
 * Validates every submission of a batch as one submission is validated. All or nothing: any violation
 * answers one 406 listing every violation of every submission, each path under its index
 * (`[3].payload_fields.field_event`), bounded as the single route's message is.
 */
class SubmissionBatchValidationPipe implements PipeTransform<SubmittedReport[], Promise<ValidatedSubmission[]>> {
  async transform(submissions: SubmittedReport[]): Promise<ValidatedSubmission[]> {
    const validated: ValidatedSubmission[] = [];
    const violations: string[] = [];
    for (const [index, { report, text }] of submissions.entries()) {
      const { submission, errors } = await checkSubmission(report);
      if (errors) violations.push(...describeViolations(errors, `[${index}]`));
      else if (violations.length === 0) validated.push({ submission, requestBody: text });
    }
    if (violations.length > 0) throw new ApiException(406, violationReport(violations));
    return validated;
  }
}

export const submissionBatchValidationPipe = new SubmissionBatchValidationPipe();
