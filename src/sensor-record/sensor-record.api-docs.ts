import { applyDecorators } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiConsumes, ApiOperation, ApiParam, ApiProduces, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { DATABASE_UNAVAILABLE_MESSAGE } from '../common/errors/database-unavailable.js';
import { BODY_TOO_LARGE_MESSAGE, DEFAULT_BODY_LIMIT } from '../common/http/route-messages.js';
import { ApiErrorResponse } from '../openapi/error-response.js';
import { unknownFormatMessage } from '../serialization/format-negotiation.js';
import { sensorRecordTypeHref } from '../serialization/hal-links.js';
import { SENSOR_REPORT_BUNDLE } from '../serialization/sensor-record.model.js';
import { CONTENT_TYPES, RESPONSE_FORMATS } from '../serialization/response-format.js';
import { CreateSensorRecordDto } from './dto/create-sensor-record.dto.js';
import { CREATE_DENIED_MESSAGE, RECORD_NOT_FOUND_MESSAGE, VIEW_DENIED_MESSAGE } from './sensor-record.messages.js';
import { unknownTypeLinkMessage, unsupportedContentTypeMessage } from './submission/json-submission.js';
import { violationReport } from './validation/validation-failure.js';
import { violationMessages } from './validation/violation-messages.js';

// The request schema comes from the DTO classes (their member decorators), the messages from the
// code that answers them: nothing here restates a rule.

/** The documented 406 of a submission: what the service answers for a body without `dev_id` and with an unknown event. */
const VALIDATION_FAILURE_EXAMPLE = violationReport([
  `dev_id: ${violationMessages.notNull}`,
  `payload_fields.field_event: ${violationMessages.choice}`,
]);

/** The documented 406 of an unknown `_format` (here `_format=yaml`). */
const UNKNOWN_FORMAT_EXAMPLE = unknownFormatMessage('yaml');

const FORMAT_QUERY = ApiQuery({
  name: '_format',
  required: false,
  enum: [...RESPONSE_FORMATS],
  description: 'Rendering of the answer. Without it the Accept header decides; the default is hal_json.',
});

export const SPEC_EXAMPLE = {
  dev_id: '0004A30B001C1234',
  metadata: { time: '2020-07-22T06:11:11+12:00', gateways: [{ rssi: -97, snr: 9.25 }] },
  payload_fields: {
    type: [{ target_id: SENSOR_REPORT_BUNDLE }],
    field_event: [{ value: 'Sprung' }],
    field_status: [{ value: 'Sprung' }],
    field_network: [{ value: 'TTN' }],
    field_gateway: [{ value: 'B8:27:EB:0A:1B:2C' }],
    field_sequence: [{ value: 1234 }],
    field_counter: [{ value: 12 }],
    field_battery_voltage: [{ value: 3.6 }],
    field_tilt_sensor: [{ value: 'False' }],
    field_timeout: [{ value: 86400 }],
  },
};

export const BAIT_LEVEL_EXAMPLE = {
  dev_id: '0004A30B001C5678',
  metadata: { time: '2020-07-22 06:11:11' },
  payload_fields: {
    type: [{ target_id: SENSOR_REPORT_BUNDLE }],
    field_event: [{ value: 'Baitlevel' }],
    field_status: [{ value: 'Baitlevel' }],
    field_battery_voltage: [{ value: 3.55 }],
    field_data: [{ value: 21 }],
  },
};

/** A stored record as `_format=json` renders it; the integration routes answer the same. */
export const RECORD_EXAMPLE = {
  nid: [{ value: 42 }],
  uuid: [{ value: '3c9d8b7a-6f5e-4d3c-9b2a-1f0e9d8c7b6a' }],
  vid: [{ value: 42 }],
  langcode: [{ value: 'en' }],
  type: [{ target_id: SENSOR_REPORT_BUNDLE, target_type: 'node_type', target_uuid: 'f0e1d2c3-b4a5-4968-8776-655443322110' }],
  revision_timestamp: [{ value: '2026-11-21T04:35:00+00:00', format: 'Y-m-d\\TH:i:sP' }],
  revision_uid: [{ target_id: 7, target_type: 'user', target_uuid: 'a3f1c2d4-5b6e-4f70-8a9b-0c1d2e3f4a5b', url: '/user/7' }],
  revision_log: [],
  status: [{ value: true }],
  uid: [{ target_id: 7, target_type: 'user', target_uuid: 'a3f1c2d4-5b6e-4f70-8a9b-0c1d2e3f4a5b', url: '/user/7' }],
  title: [{ value: 'Sensor report: 0004A30B001C1234 (2020-07-22T06:11:11+12:00)' }],
  created: [{ value: '2026-11-21T04:35:00+00:00', format: 'Y-m-d\\TH:i:sP' }],
  changed: [{ value: '2026-11-21T04:35:00+00:00', format: 'Y-m-d\\TH:i:sP' }],
  promote: [{ value: false }],
  sticky: [{ value: false }],
  default_langcode: [{ value: true }],
  revision_translation_affected: [{ value: true }],
  path: [{ alias: null, pid: null, langcode: 'en' }],
  field_battery_voltage: [{ value: '3.6' }],
  field_counter: [{ value: 12 }],
  field_data: [],
  field_date: [{ value: '2020-07-22T06:11:11+12:00' }],
  field_event: [{ value: 'Sprung' }],
  field_gateway: [{ value: 'B8:27:EB:0A:1B:2C' }],
  field_location: [],
  field_network: [{ value: 'TTN' }],
  field_rssi: [{ value: -97 }],
  field_sensor_id: [{ value: '0004A30B001C1234' }],
  field_sequence: [{ value: 1234 }],
  field_snr: [{ value: '9.25' }],
  field_status: [{ value: 'Sprung' }],
  field_tilt_sensor: [{ value: 'False' }],
  field_timeout: [{ value: 86400 }],
};

const RECORD_RESPONSE_CONTENT = {
  [CONTENT_TYPES.hal_json]: { schema: { type: 'object', description: "Drupal's HAL rendering (the default)." } },
  [CONTENT_TYPES.json]: { schema: { type: 'object' }, example: RECORD_EXAMPLE },
  [CONTENT_TYPES.xml]: { schema: { type: 'string' } },
};

export function CreateSensorRecordDocs() {
  return applyDecorators(
    ApiTags('Sensor records'),
    ApiBearerAuth('bearer'),
    ApiOperation({
      summary: 'Create a sensor record',
      description: 'Validates a device report and stores it as a sensor_report record. A 201 is sent only after the row is committed.',
    }),
    FORMAT_QUERY,
    ApiConsumes('application/hal+json', 'application/json'),
    ApiProduces(...Object.values(CONTENT_TYPES)),
    ApiBody({
      type: CreateSensorRecordDto,
      description:
        'Each member may be a list of one `{"value": x}` (as in the examples), a bare `{"value": x}`, or the bare value; ' +
        'unknown members are ignored and kept with the stored record.',
      examples: {
        trapSprung: { summary: 'A trap sprung', value: SPEC_EXAMPLE },
        baitLevel: { summary: 'A bait-station level report (local time)', value: BAIT_LEVEL_EXAMPLE },
      },
    }),
    ApiResponse({
      status: 201,
      description: 'The stored record with its node and revision metadata; `Location` names it.',
      headers: { Location: { description: '`${BASE_URL}/node/<nid>`', schema: { type: 'string' } } },
      content: RECORD_RESPONSE_CONTENT,
    }),
    ApiErrorResponse(403, 'No valid bearer token, a blocked user, or no permission to submit records.', CREATE_DENIED_MESSAGE),
    ApiErrorResponse(
      406,
      `A member is missing or invalid (every violation listed), or \`_format\` is unknown (\`${UNKNOWN_FORMAT_EXAMPLE}\`).`,
      VALIDATION_FAILURE_EXAMPLE,
    ),
    ApiErrorResponse(413, `The body is larger than ${DEFAULT_BODY_LIMIT.shown}.`, BODY_TOO_LARGE_MESSAGE),
    ApiErrorResponse(415, 'Content-Type is missing or not JSON.', unsupportedContentTypeMessage('text/plain')),
    ApiErrorResponse(
      422,
      'The body is not JSON, not an object, or `_links.type.href` names another type.',
      unknownTypeLinkMessage(sensorRecordTypeHref('http://example.org'), sensorRecordTypeHref('http://localhost:3000')),
    ),
    ApiErrorResponse(
      503,
      'The database is unavailable; nothing was stored. Retry after `Retry-After` seconds.',
      DATABASE_UNAVAILABLE_MESSAGE,
    ),
  );
}

export function ReadSensorRecordDocs() {
  return applyDecorators(
    ApiTags('Sensor records'),
    ApiBearerAuth('bearer'),
    ApiOperation({ summary: 'Read a sensor record back', description: 'Only the user who created the record may read it.' }),
    ApiParam({ name: 'nid', schema: { type: 'integer', minimum: 1 } }),
    FORMAT_QUERY,
    ApiProduces(...Object.values(CONTENT_TYPES)),
    ApiResponse({ status: 200, description: 'The record, rendered as the POST answered it.', content: RECORD_RESPONSE_CONTENT }),
    ApiErrorResponse(403, "No valid bearer token, or the record is another user's.", VIEW_DENIED_MESSAGE),
    ApiErrorResponse(404, 'No record has this nid.', RECORD_NOT_FOUND_MESSAGE),
    ApiErrorResponse(406, 'Unknown `_format`.', UNKNOWN_FORMAT_EXAMPLE),
  );
}
