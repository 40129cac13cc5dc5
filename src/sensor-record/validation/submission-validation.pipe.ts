import type { ArgumentMetadata, PipeTransform } from '@nestjs/common';
import { validate, type ValidationError, type ValidatorOptions } from 'class-validator';
import { CreateSensorRecordDto } from '../dto/create-sensor-record.dto.js';
import { passesConstraints } from './passes-constraints.js';
import { shapeInstance } from './submission-shape.js';
import { isPlainObject } from './unwrap-member.js';
import { validationFailure } from './validation-failure.js';

/** Each member reports its first violation only; a violation carries the value, never the whole object. */
const VALIDATOR_OPTIONS: ValidatorOptions = {
  stopAtFirstError: true,
  forbidUnknownValues: false,
  validationError: { target: false, value: true },
};

/** A submission as its DTO, or the violations that refuse it. */
export type SubmissionCheck = { submission: CreateSensorRecordDto; errors?: never } | { submission?: never; errors: ValidationError[] };

/**
 * Shapes a parsed submission into the DTO (members outside the DTOs are dropped, not rejected;
 * anything but a JSON object reads as an object without members) and validates it with class-validator:
 * its constraints asked directly first, `validate()` for the words of a submission they do not pass.
 */
export async function checkSubmission(submitted: unknown): Promise<SubmissionCheck> {
  const submission = shapeInstance(CreateSensorRecordDto, isPlainObject(submitted) ? submitted : {});
  if (passesConstraints(submission)) return { submission };
  const errors = await validate(submission, VALIDATOR_OPTIONS);
  return errors.length > 0 ? { errors } : { submission };
}

/** A submission as its DTO; its violations refused as one 406. */
export async function validSubmission(submitted: unknown): Promise<CreateSensorRecordDto> {
  const { submission, errors } = await checkSubmission(submitted);
  if (errors) throw validationFailure(errors);
  return submission;
}

/**
 * The submission's validation for the routes that take one through a pipe of their own (the network
 * servers' uplinks); the single route validates in ParseSubmissionPipe. Route-scoped rather than
 * global: the token endpoint answers its own RFC 6749 errors.
 */
class SubmissionValidationPipe implements PipeTransform<unknown, Promise<CreateSensorRecordDto>> {
  /** The DTO is always CreateSensorRecordDto, whatever the parameter's metadata says. */
  transform(submitted: unknown, _metadata?: ArgumentMetadata): Promise<CreateSensorRecordDto> {
    return validSubmission(submitted);
  }
}

export const submissionValidationPipe = new SubmissionValidationPipe();
