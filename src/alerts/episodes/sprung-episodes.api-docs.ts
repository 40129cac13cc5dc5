import { applyDecorators } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiProduces, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { DATABASE_UNAVAILABLE_MESSAGE } from '../../common/errors/database-unavailable.js';
import { invalidQueryMessage } from '../../common/query/query-parameters.pipe.js';
import { queryTimeReason } from '../../common/query/query-time.js';
import { ApiErrorResponse } from '../../openapi/error-response.js';
import { ApiFormatDocs } from '../../openapi/format-docs.js';
import { CONTENT_TYPES, CSV_CONTENT_TYPE } from '../../serialization/response-format.js';
import { SENSORS_DENIED_MESSAGE } from '../../sensor/sensor.messages.js';
import { EPISODE_LIST_MAX_LIMIT } from './sprung-episodes-query.dto.js';

export function ListSprungEpisodesDocs(formats: readonly string[]) {
  return applyDecorators(
    ApiTags('Sensors'),
    ApiBearerAuth('bearer'),
    ApiOperation({
      summary: "List the caller's sprung episodes",
      description:
        "Each time one of the caller's traps was sprung, until a Set: when, when it was set again, when its first notification was delivered, and whether it was set within 24 hours. The earliest sprung first.",
    }),
    ApiQuery({
      name: 'since',
      required: false,
      description: 'Episodes sprung at or after this instant (read as a device time is).',
      schema: { type: 'string' },
    }),
    ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: EPISODE_LIST_MAX_LIMIT } }),
    ApiFormatDocs(formats),
    ApiProduces(CONTENT_TYPES.json, CSV_CONTENT_TYPE),
    ApiResponse({ status: 200, description: '`{"episodes": […]}`, or CSV with one line per episode.' }),
    ApiErrorResponse(400, 'A query parameter is invalid, repeated or unknown.', invalidQueryMessage([`since: ${queryTimeReason}`])),
    ApiErrorResponse(403, 'No valid bearer token, or a blocked user.', SENSORS_DENIED_MESSAGE),
    ApiErrorResponse(503, 'The database is unavailable.', DATABASE_UNAVAILABLE_MESSAGE),
  );
}
