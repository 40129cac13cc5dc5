import { applyDecorators } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiParam, ApiProduces, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { DATABASE_UNAVAILABLE_MESSAGE } from '../common/errors/database-unavailable.js';
import { invalidQueryMessage } from '../common/query/query-parameters.pipe.js';
import { queryReasons } from '../common/query/query-rules.js';
import { ApiErrorResponse } from '../openapi/error-response.js';
import { ApiFormatDocs } from '../openapi/format-docs.js';
import { CONTENT_TYPES, CSV_CONTENT_TYPE } from '../serialization/response-format.js';
import { RECENT_RECORDS_DEFAULT, RECENT_RECORDS_MAX } from './dto/show-sensor-query.dto.js';
import { SENSOR_LIST_DEFAULT_LIMIT, SENSOR_LIST_MAX_LIMIT } from './dto/list-sensors-query.dto.js';
import { SENSOR_LIST_FORMATS, SENSOR_SHOW_FORMATS } from './sensor-formats.js';
import { SENSORS_DENIED_MESSAGE, sensorNotFoundMessage } from './sensor.messages.js';
import { SENSOR_STATES } from './sensor-state.js';

const common = (summary: string, description: string) =>
  applyDecorators(
    ApiTags('Sensors'),
    ApiBearerAuth('bearer'),
    ApiOperation({ summary, description }),
    ApiErrorResponse(403, 'No valid bearer token, or a blocked user.', SENSORS_DENIED_MESSAGE),
    ApiErrorResponse(503, 'The database is unavailable.', DATABASE_UNAVAILABLE_MESSAGE),
  );

export function ListSensorsDocs() {
  return applyDecorators(
    common(
      "List the caller's sensors",
      'One sensor per device the caller has submitted records for, in dev_id order, with its state at the time of the request. ' +
        'The `next` member and the `Link` header name the next page.',
    ),
    ApiQuery({ name: 'state', required: false, enum: [...SENSOR_STATES] }),
    ApiQuery({ name: 'sprung', required: false, schema: { type: 'boolean' } }),
    ApiQuery({
      name: 'after',
      required: false,
      description: 'Start after this dev_id (from the `next` link).',
      schema: { type: 'string' },
    }),
    ApiQuery({
      name: 'limit',
      required: false,
      description: `Sensors per page (default ${SENSOR_LIST_DEFAULT_LIMIT}); a CSV without it lists every sensor.`,
      schema: { type: 'integer', minimum: 1, maximum: SENSOR_LIST_MAX_LIMIT },
    }),
    ApiFormatDocs(SENSOR_LIST_FORMATS),
    ApiProduces(CONTENT_TYPES.json, CSV_CONTENT_TYPE),
    ApiResponse({ status: 200, description: '`{"sensors": […], "next": url or null}`, or CSV with one line per sensor.' }),
    ApiErrorResponse(
      400,
      'A query parameter is invalid, repeated or unknown.',
      invalidQueryMessage([`limit: ${queryReasons.between(1, SENSOR_LIST_MAX_LIMIT)}`]),
    ),
  );
}

export function ShowSensorDocs() {
  return applyDecorators(
    common(
      'Read one sensor and its latest records',
      'The records are rendered as GET /node/{nid}?_format=json renders them, newest device time first.',
    ),
    ApiParam({ name: 'dev_id', schema: { type: 'string' } }),
    ApiQuery({
      name: 'records',
      required: false,
      description: `How many of its latest records (default ${RECENT_RECORDS_DEFAULT}).`,
      schema: { type: 'integer', minimum: 0, maximum: RECENT_RECORDS_MAX },
    }),
    ApiFormatDocs(SENSOR_SHOW_FORMATS),
    ApiProduces(CONTENT_TYPES.json),
    ApiResponse({ status: 200, description: '`{"sensor": {…}, "records": […]}`' }),
    ApiErrorResponse(
      400,
      'A query parameter is invalid, repeated or unknown.',
      invalidQueryMessage([`records: ${queryReasons.between(0, RECENT_RECORDS_MAX)}`]),
    ),
    ApiErrorResponse(404, 'The caller has no sensor with this dev_id.', sensorNotFoundMessage('trap-17')),
  );
}
