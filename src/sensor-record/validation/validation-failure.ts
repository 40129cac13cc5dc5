import type { ValidationError } from 'class-validator';
import { ApiException } from '../../common/errors/api-exception.js';

/**
 * One `<path>: <reason>` line per violation; paths name members as submitted (`metadata.gateways[0].rssi`),
 * under `parentPath` when given (`[3]` for the fourth submission of a batch: `[3].metadata.time`).
 */
export function describeViolations(errors: ValidationError[], parentPath = '', parentIsList = false): string[] {
  return errors.flatMap((error) => {
    const path = parentIsList ? `${parentPath}[${error.property}]` : parentPath ? `${parentPath}.${error.property}` : error.property;
    const reasons = Object.values(error.constraints ?? {}).map((reason) => `${path}: ${reason}`);
    return [...reasons, ...describeViolations(error.children ?? [], path, Array.isArray(error.value))];
  });
}

/** Violations listed in one 406 message; the rest are counted, so a hostile body cannot make the answer huge. */
export const MAX_LISTED_VIOLATIONS = 20;

/** The message of Drupal's REST 406 for an entity that fails validation: one `<path>: <reason>` line per violation. */
export function violationReport(violations: string[]): string {
  const lines = violations.slice(0, MAX_LISTED_VIOLATIONS);
  if (violations.length > lines.length) lines.push(`… and ${violations.length - lines.length} more.`);
  return `Unprocessable Entity: validation failed.\n${lines.map((line) => `${line}\n`).join('')}`;
}

/** The 406 of a submission that fails validation, with its violation lines for callers that report them otherwise. */
export class ValidationFailedException extends ApiException {
  constructor(readonly violations: string[]) {
    super(406, violationReport(violations));
  }
}

export function validationFailure(errors: ValidationError[]): ValidationFailedException {
  return new ValidationFailedException(describeViolations(errors));
}
