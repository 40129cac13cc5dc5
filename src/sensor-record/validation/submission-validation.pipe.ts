import { ValidationPipe } from '@nestjs/common';
import * as classTransformer from 'class-transformer';
import * as classValidator from 'class-validator';
import { validationFailure } from './validation-failure.js';

/**
 * Route-scoped rather than global: the token endpoint answers its own RFC 6749 errors. Each member
 * reports its first violation only; members outside the DTOs are dropped, not rejected.
 */
export const submissionValidationPipe = new ValidationPipe({
  transform: true,
  transformOptions: { excludeExtraneousValues: true },
  validateCustomDecorators: true,
  stopAtFirstError: true,
  validationError: { target: false, value: true },
  exceptionFactory: validationFailure,
  // Handed over rather than imported lazily by the pipe, which exits the process if that import fails.
  validatorPackage: classValidator,
  transformerPackage: classTransformer,
});
