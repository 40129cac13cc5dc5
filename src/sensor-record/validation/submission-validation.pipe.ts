import { ValidationPipe, type ValidationPipeOptions } from '@nestjs/common';
import * as classTransformer from 'class-transformer';
import * as classValidator from 'class-validator';
import { validationFailure } from './validation-failure.js';

/** How a submission's members are converted and checked, on either route. */
export const SUBMISSION_VALIDATION_OPTIONS: ValidationPipeOptions = {
  transform: true,
  transformOptions: { excludeExtraneousValues: true },
  validateCustomDecorators: true,
  stopAtFirstError: true,
  validationError: { target: false, value: true },
  // Handed over rather than imported lazily by the pipe, which exits the process if that import fails.
  validatorPackage: classValidator,
  transformerPackage: classTransformer,
};

/**
 * Route-scoped rather than global: the token endpoint answers its own RFC 6749 errors. Each member
 * reports its first violation only; members outside the DTOs are dropped, not rejected.
 */
export const submissionValidationPipe = new ValidationPipe({ ...SUBMISSION_VALIDATION_OPTIONS, exceptionFactory: validationFailure });
