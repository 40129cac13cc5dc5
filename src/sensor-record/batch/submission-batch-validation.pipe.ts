import { type ArgumentMetadata, type PipeTransform, ValidationPipe } from '@nestjs/common';
import type { ValidationError } from 'class-validator';
import { ApiException } from '../../common/errors/api-exception.js';
import { CreateSensorRecordDto } from '../dto/create-sensor-record.dto.js';
import { REPORT_VALIDATION_OPTIONS } from '../validation/submission-validation.pipe.js';
import { describeViolations, violationReport } from '../validation/validation-failure.js';

/** A report of a batch that passed validation, with the text its record keeps as `request_body`. */
export interface ValidatedReport {
  submission: CreateSensorRecordDto;
  /** The report's own JSON, written again from what was parsed (docs/interface.md#batches-of-reports). */
  requestBody: string;
}

class ReportViolations extends Error {
  constructor(readonly errors: ValidationError[]) {
    super('The report failed validation');
  }
}

/** The single route's validation, handing back the violations of one report rather than answering them. */
const reportValidationPipe = new ValidationPipe({
  ...REPORT_VALIDATION_OPTIONS,
  exceptionFactory: (errors) => new ReportViolations(errors),
});
const REPORT: ArgumentMetadata = { type: 'body', metatype: CreateSensorRecordDto };

/**
 * Validates every report of a batch as one submission is validated. All or nothing: any violation
 * answers one 406 listing every violation of every report, each path under its report's index
 * (`[3].payload_fields.field_event`), bounded as the single route's message is.
 */
export class SubmissionBatchValidationPipe implements PipeTransform<Record<string, unknown>[], Promise<ValidatedReport[]>> {
  async transform(reports: Record<string, unknown>[]): Promise<ValidatedReport[]> {
    const submissions: CreateSensorRecordDto[] = [];
    const violations: string[] = [];
    for (const [index, report] of reports.entries()) {
      try {
        submissions.push((await reportValidationPipe.transform(report, REPORT)) as CreateSensorRecordDto);
      } catch (error) {
        if (!(error instanceof ReportViolations)) throw error;
        violations.push(...describeViolations(error.errors, `[${index}]`));
      }
    }
    if (violations.length > 0) throw new ApiException(406, violationReport(violations));
    return submissions.map((submission, index) => ({ submission, requestBody: JSON.stringify(reports[index]) }));
  }
}

export const submissionBatchValidationPipe = new SubmissionBatchValidationPipe();
