import { applyDecorators } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiParam, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiFormatDocs } from '../../openapi/format-docs.js';
import { ApiErrorResponse } from '../../openapi/error-response.js';
import { CONTENT_TYPES, RESPONSE_FORMATS } from '../../serialization/response-format.js';
import { USER_NOT_FOUND_MESSAGE, USER_VIEW_DENIED_MESSAGE } from './user.messages.js';

export function ReadUserDocs() {
  return applyDecorators(
    ApiTags('Users'),
    ApiBearerAuth('bearer'),
    ApiOperation({
      summary: "The caller's own account",
      description: "Where a record's uid and revision_uid links lead: uid, uuid, langcode, name, status, created, changed.",
    }),
    ApiParam({ name: 'uid', schema: { type: 'integer', minimum: 1 } }),
    ApiFormatDocs(RESPONSE_FORMATS),
    ApiProduces(...Object.values(CONTENT_TYPES)),
    ApiResponse({ status: 200, description: "The caller's account, in the negotiated format." }),
    ApiErrorResponse(403, "No valid bearer token, or the account is another user's.", USER_VIEW_DENIED_MESSAGE),
    ApiErrorResponse(404, 'No user has this uid.', USER_NOT_FOUND_MESSAGE),
  );
}
