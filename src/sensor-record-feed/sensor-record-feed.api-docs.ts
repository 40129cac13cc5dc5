import { applyDecorators } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiProduces, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { DATABASE_UNAVAILABLE_MESSAGE } from '../common/errors/database-unavailable.js';
import { invalidQueryMessage } from '../common/query/query-parameters.pipe.js';
import { ApiErrorResponse } from '../openapi/error-response.js';
import { unknownFormatMessage } from '../serialization/format-negotiation.js';
import { CONTENT_TYPES, CSV_CONTENT_TYPE, RESPONSE_FORMATS } from '../serialization/response-format.js';
import { FEED_DEFAULT_LIMIT, FEED_MAX_LIMIT, feedReasons, NID_MAX } from './dto/feed-query.dto.js';
import { FEED_DENIED_MESSAGE } from './feed.messages.js';

export function FeedDocs() {
  return applyDecorators(
    ApiTags('Sensor records'),
    ApiBearerAuth('bearer'),
    ApiOperation({
      summary: "The caller's records since a point",
      description:
        'Records ordered by (changed, nid), each rendered as GET /node/{nid} renders it; a page by keyset. The `Link` header ' +
        '(and `next` in the body) names the next page. Only records changed more than DB_REQUEST_TIMEOUT_MS + 2 s ago are ' +
        'served, so that following `next` never skips a record that commits late.',
    }),
    ApiQuery({
      name: 'changed_since',
      required: false,
      description: 'ISO 8601 date and time (the syntax of metadata.time).',
      schema: { type: 'string' },
    }),
    ApiQuery({
      name: 'changed_since_nid',
      required: false,
      description: 'With changed_since: start after the record of that second with this nid.',
      schema: { type: 'integer', minimum: 0, maximum: NID_MAX },
    }),
    ApiQuery({
      name: 'limit',
      required: false,
      description: `Records per page (default ${FEED_DEFAULT_LIMIT}); a CSV without it is every record.`,
      schema: { type: 'integer', minimum: 1, maximum: FEED_MAX_LIMIT },
    }),
    ApiQuery({
      name: 'columns',
      required: false,
      description: 'CSV only: the field names to export, comma-separated, in that order (default: every field, in the json order).',
      schema: { type: 'string', example: 'field_sensor_id,field_date,field_event,field_status,field_battery_voltage' },
    }),
    ApiQuery({ name: '_format', required: false, enum: [...RESPONSE_FORMATS, 'csv'] }),
    ApiProduces(...Object.values(CONTENT_TYPES), CSV_CONTENT_TYPE),
    ApiResponse({ status: 200, description: '`{"next": url, "more": bool, "records": […]}` (json), its HAL and xml forms, or CSV.' }),
    ApiErrorResponse(
      400,
      'A query parameter is invalid, repeated or unknown.',
      invalidQueryMessage([`changed_since: ${feedReasons.datetime}`]),
    ),
    ApiErrorResponse(403, 'No valid bearer token, or a blocked user.', FEED_DENIED_MESSAGE),
    ApiErrorResponse(406, 'Unknown `_format`.', unknownFormatMessage('yaml', [...RESPONSE_FORMATS, 'csv'])),
    ApiErrorResponse(503, 'The database is unavailable.', DATABASE_UNAVAILABLE_MESSAGE),
  );
}
