import { type ArgumentMetadata, type PipeTransform, ValidationPipe } from '@nestjs/common';
import type { ValidationError } from 'class-validator';
import { ApiException } from '../../common/errors/api-exception.js';
import { CreateSensorRecordDto } from '../dto/create-sensor-record.dto.js';
import { SUBMISSION_VALIDATION_OPTIONS } from '../validation/submission-validation.pipe.js';
import { describeViolations, violationReport } from '../validation/validation-failure.js';

/** A submission of a batch that passed validation, with the text its record keeps as `request_body`. */
export interface ValidatedSubmission {
  submission: CreateSensorRecordDto;
  /** The submission's own JSON, written again from what was parsed (docs/interface.md#batches-of-reports). */
  requestBody: string;
}

class SubmissionViolations extends Error {
  constructor(readonly errors: ValidationError[]) {
    super('The submission failed validation');
  }
}

/** The single route's validation, handing back the violations of one submission rather than answering them. */
const oneSubmissionValidationPipe = new ValidationPipe({
  ...SUBMISSION_VALIDATION_OPTIONS,
  exceptionFactory: (errors) => new SubmissionViolations(errors),
});
const SUBMISSION_BODY: ArgumentMetadata = { type: 'body', metatype: CreateSensorRecordDto };

/**
 * Validates every submission of a batch as one submission is validated. All or nothing: any violation
 * answers one 406 listing every violation of every submission, each path under its index
 * (`[3].payload_fields.field_event`), bounded as the single route's message is.
 */
class SubmissionBatchValidationPipe implements PipeTransform<Record<string, unknown>[], Promise<ValidatedSubmission[]>> {
  async transform(submissions: Record<string, unknown>[]): Promise<ValidatedSubmission[]> {
    const validated: CreateSensorRecordDto[] = [];
    const violations: string[] = [];
    for (const [index, submission] of submissions.entries()) {
      try {
        validated.push((await oneSubmissionValidationPipe.transform(submission, SUBMISSION_BODY)) as CreateSensorRecordDto);
      } catch (error) {
        if (!(error instanceof SubmissionViolations)) throw error;
        violations.push(...describeViolations(error.errors, `[${index}]`));
      }
    }
    if (violations.length > 0) throw new ApiException(406, violationReport(violations));
    return validated.map((submission, index) => ({ submission, requestBody: JSON.stringify(submissions[index]) }));
  }
}

export const submissionBatchValidationPipe = new SubmissionBatchValidationPipe();
