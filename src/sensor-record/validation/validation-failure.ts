import type { ValidationError } from 'class-validator';
import { ApiException } from '../../common/errors/api-exception.js';

/** One `<path>: <reason>` line per violation; paths name members as submitted (`metadata.gateways[0].rssi`). */
export function describeViolations(errors: ValidationError[], parentPath = '', parentIsList = false): string[] {
  return errors.flatMap((error) => {
    const path = parentIsList ? `${parentPath}[${error.property}]` : parentPath ? `${parentPath}.${error.property}` : error.property;
    const reasons = Object.values(error.constraints ?? {}).map((reason) => `${path}: ${reason}`);
    return [...reasons, ...describeViolations(error.children ?? [], path, Array.isArray(error.value))];
  });
}

/** The 406 Drupal's REST module answers for an entity that fails validation (decisions §3). */
export function validationFailure(errors: ValidationError[]): ApiException {
  const lines = describeViolations(errors).map((line) => `${line}\n`);
  return new ApiException(406, `Unprocessable Entity: validation failed.\n${lines.join('')}`);
}
