import { applyDecorators } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import { unknownFormatMessage } from '../serialization/format-negotiation.js';
import { ApiErrorResponse } from './error-response.js';

/** The `_format` a read route negotiates among `formats`, and the 406 of one it does not serve. */
export function ApiFormatDocs(formats: readonly string[]) {
  return applyDecorators(
    ApiQuery({ name: '_format', required: false, enum: [...formats] }),
    ApiErrorResponse(406, 'Unknown `_format`.', unknownFormatMessage('yaml', formats)),
  );
}
