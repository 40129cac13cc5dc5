import { applyDecorators } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiConsumes, ApiOperation, ApiParam, ApiProduces, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponse } from '../openapi/error-response.js';

const FORMAT_QUERY = ApiQuery({
  name: '_format',
  required: false,
  enum: ['hal_json', 'json', 'xml'],
  description: 'Rendering of the answer. Without it the Accept header decides; the default is hal_json.',
});

const SPEC_EXAMPLE = {
  dev_id: '0004A30B001C1234',
  metadata: { time: '2020-07-22T06:11:11+12:00', gateways: [{ rssi: -97, snr: 9.25 }] },
  payload_fields: {
    type: [{ target_id: 'sensor_report' }],
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

const BAIT_LEVEL_EXAMPLE = {
  dev_id: '0004A30B001C5678',
  metadata: { time: '2020-07-22 06:11:11' },
  payload_fields: {
    type: [{ target_id: 'sensor_report' }],
    field_event: [{ value: 'Baitlevel' }],
    field_status: [{ value: 'Baitlevel' }],
    field_battery_voltage: [{ value: 3.55 }],
    field_data: [{ value: 21 }],
  },
};

const wrapped = (value: object) => ({ type: 'array', minItems: 1, maxItems: 1, items: { type: 'object', properties: { value } } });

const SUBMISSION_SCHEMA = {
  type: 'object',
  required: ['dev_id', 'metadata', 'payload_fields'],
  description:
    'Each payload member may be a list of one `{"value": x}` (as shown), a bare `{"value": x}`, or the bare value; ' +
    'unknown members are ignored and kept with the stored record.',
  properties: {
    dev_id: { type: 'string', minLength: 1, maxLength: 255 },
    metadata: {
      type: 'object',
      required: ['time'],
      properties: {
        time: { type: 'string', description: 'ISO 8601; without an offset it is local to SITE_TIMEZONE.', example: '2020-07-22T06:11:11+12:00' },
        gateways: {
          type: 'array',
          items: { type: 'object', properties: { rssi: { type: 'integer' }, snr: { type: 'number' } } },
        },
      },
    },
    payload_fields: {
      type: 'object',
      required: ['type', 'field_event'],
      properties: {
        type: { type: 'array', items: { type: 'object', properties: { target_id: { type: 'string', enum: ['sensor_report'] } } } },
        field_event: wrapped({ type: 'string', enum: ['Sprung', 'Set', 'Vibration', 'Heartbeat', 'Baitlevel'] }),
        field_status: wrapped({ type: 'string', enum: ['Sprung', 'Set', 'Baitlevel'] }),
        field_network: wrapped({ type: 'string', maxLength: 255 }),
        field_gateway: wrapped({ type: 'string', pattern: '^[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){5}$' }),
        field_sequence: wrapped({ type: 'integer', minimum: 0, maximum: 2147483647 }),
        field_counter: wrapped({ type: 'integer', minimum: 0, maximum: 2147483647 }),
        field_battery_voltage: wrapped({ type: 'number', minimum: -9999999, maximum: 9999999 }),
        field_tilt_sensor: wrapped({ type: 'string', enum: ['True', 'False', 'Fail', 'NotInstalled'] }),
        field_timeout: wrapped({ type: 'integer', minimum: -1, maximum: 2147483647, default: 86400 }),
        field_data: wrapped({ type: 'number', minimum: -9999999, maximum: 9999999 }),
      },
    },
  },
};

const RECORD_EXAMPLE = {
  nid: [{ value: 42 }],
  uuid: [{ value: '3c9d8b7a-6f5e-4d3c-9b2a-1f0e9d8c7b6a' }],
  vid: [{ value: 42 }],
  langcode: [{ value: 'en' }],
  type: [{ target_id: 'sensor_report', target_type: 'node_type', target_uuid: 'f0e1d2c3-b4a5-4968-8776-655443322110' }],
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
  'application/hal+json': { schema: { type: 'object', description: "Drupal's HAL rendering (the default)." } },
  'application/json': { schema: { type: 'object' }, example: RECORD_EXAMPLE },
  'text/xml; charset=UTF-8': { schema: { type: 'string' } },
};

const FORBIDDEN_CREATE = 'You are not authorized to create this node entity of bundle sensor_report.';

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
    ApiProduces('application/hal+json', 'application/json', 'text/xml'),
    ApiBody({
      schema: SUBMISSION_SCHEMA,
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
    ApiErrorResponse(403, 'No valid bearer token, a blocked user, or no permission to submit records.', FORBIDDEN_CREATE),
    ApiErrorResponse(
      406,
      'A member is missing or invalid (every violation listed), or `_format` is unknown.',
      'Unprocessable Entity: validation failed.\ndev_id: This value should not be null.\npayload_fields.field_event: The value you selected is not a valid choice.\n',
    ),
    ApiErrorResponse(413, 'The body is larger than 64 KiB.', 'Request body is larger than the 64 KiB limit.'),
    ApiErrorResponse(415, 'Content-Type is missing or not JSON.', 'No route found that matches "Content-Type: text/plain"'),
    ApiErrorResponse(
      422,
      'The body is not JSON, not an object, or `_links.type.href` names another type.',
      'Type http://example.org/rest/type/node/sensor_report does not correspond to an entity on this site.',
    ),
    ApiErrorResponse(503, 'The database is unavailable; nothing was stored. Retry after `Retry-After` seconds.', 'The database is temporarily unavailable; nothing was stored. Please retry.'),
  );
}

export function ReadSensorRecordDocs() {
  return applyDecorators(
    ApiTags('Sensor records'),
    ApiBearerAuth('bearer'),
    ApiOperation({ summary: 'Read a sensor record back', description: 'Only the user who created the record may read it.' }),
    ApiParam({ name: 'nid', schema: { type: 'integer', minimum: 1 } }),
    FORMAT_QUERY,
    ApiProduces('application/hal+json', 'application/json', 'text/xml'),
    ApiResponse({ status: 200, description: 'The record, rendered as the POST answered it.', content: RECORD_RESPONSE_CONTENT }),
    ApiErrorResponse(403, 'No valid bearer token, or the record is another user\'s.', 'You are not authorized to view this node entity of bundle sensor_report.'),
    ApiErrorResponse(404, 'No record has this nid.', 'The "node" parameter was not converted for the path "/node/{node}" (route name: "rest.entity.node.GET")'),
    ApiErrorResponse(406, 'Unknown `_format`.', 'No route found for the specified format yaml. Supported formats: hal_json, json, xml.'),
  );
}
