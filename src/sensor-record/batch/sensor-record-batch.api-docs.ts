import { applyDecorators } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiConsumes,
  ApiExtraModels,
  ApiOperation,
  ApiProduces,
  ApiQuery,
  ApiResponse,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import { DATABASE_UNAVAILABLE_MESSAGE } from '../../common/errors/database-unavailable.js';
import { bodyTooLargeMessage } from '../../common/http/route-messages.js';
import { ApiErrorResponse } from '../../openapi/error-response.js';
import { unknownFormatMessage } from '../../serialization/format-negotiation.js';
import { CreateSensorRecordDto } from '../dto/create-sensor-record.dto.js';
import { BATCHES_BUSY_MESSAGE } from './batches-in-flight.js';
import { BAIT_LEVEL_EXAMPLE, SPEC_EXAMPLE } from '../sensor-record.api-docs.js';
import { CREATE_DENIED_MESSAGE } from '../sensor-record.messages.js';
import { unsupportedContentTypeMessage } from '../submission/json-submission.js';
import { violationReport } from '../validation/validation-failure.js';
import { violationMessages } from '../validation/violation-messages.js';
import { CreatedRecordDto } from './created-record.dto.js';
import { BATCH_BODY_LIMIT, MAX_BATCH_SUBMISSIONS, NOT_A_LIST_MESSAGE } from './parse-submission-batch.pipe.js';

// As for one submission: the schema comes from the DTO classes, the messages from the code that answers them.

/** The documented 406: the second submission without `dev_id`, the third with an unknown event. */
const VALIDATION_FAILURE_EXAMPLE = violationReport([
  `[1].dev_id: ${violationMessages.notNull}`,
  `[2].payload_fields.field_event: ${violationMessages.choice}`,
]);

const CREATED_EXAMPLE = [
  { nid: 42, uuid: '3c9d8b7a-6f5e-4d3c-9b2a-1f0e9d8c7b6a', location: 'https://sensors.example.org/node/42' },
  { nid: 43, uuid: '8e1f0a2b-3c4d-4e5f-9a6b-7c8d9e0f1a2b', location: 'https://sensors.example.org/node/43' },
];

export function CreateSensorRecordBatchDocs() {
  return applyDecorators(
    ApiTags('Sensor records'),
    ApiBearerAuth('bearer'),
    ApiExtraModels(CreateSensorRecordDto, CreatedRecordDto),
    ApiOperation({
      summary: 'Create the sensor records of a batch of reports',
      description:
        `Up to ${MAX_BATCH_SUBMISSIONS} reports, each in any shape one submission may take, validated as one submission is and ` +
        'stored in one transaction: every report or none. A 201 is sent only after the COMMIT; it lists each record, in the ' +
        "reports' order. Each record keeps its report's own text in the body, as received, as its request body.",
    }),
    ApiQuery({ name: '_format', required: false, enum: ['json'], description: 'The answer is JSON; any other `_format` answers 406.' }),
    ApiConsumes('application/hal+json', 'application/json'),
    ApiProduces('application/json'),
    ApiBody({
      description: `A JSON array of 1 to ${MAX_BATCH_SUBMISSIONS} reports, at most ${BATCH_BODY_LIMIT.shown} in all.`,
      schema: { type: 'array', minItems: 1, maxItems: MAX_BATCH_SUBMISSIONS, items: { $ref: getSchemaPath(CreateSensorRecordDto) } },
      examples: { buffered: { summary: 'Two reports a relay buffered', value: [SPEC_EXAMPLE, BAIT_LEVEL_EXAMPLE] } },
    }),
    ApiResponse({
      status: 201,
      description: "One entry per report, in the reports' order: the record's nid, uuid and address.",
      content: {
        'application/json': {
          schema: { type: 'array', items: { $ref: getSchemaPath(CreatedRecordDto) } },
          example: CREATED_EXAMPLE,
        },
      },
    }),
    ApiErrorResponse(403, 'No valid bearer token, a blocked user, or no permission to submit records.', CREATE_DENIED_MESSAGE),
    ApiErrorResponse(
      406,
      'A member of any report is missing or invalid (every violation of every report listed, under its index; nothing stored), ' +
        `or \`_format\` is not json (\`${unknownFormatMessage('xml', ['json'])}\`).`,
      VALIDATION_FAILURE_EXAMPLE,
    ),
    ApiErrorResponse(
      413,
      `The body is larger than ${BATCH_BODY_LIMIT.shown}, or holds more than ${MAX_BATCH_SUBMISSIONS} reports.`,
      bodyTooLargeMessage(BATCH_BODY_LIMIT.shown),
    ),
    ApiErrorResponse(415, 'Content-Type is missing or not JSON.', unsupportedContentTypeMessage('text/plain')),
    ApiErrorResponse(
      422,
      'The body is not JSON or not a list of reports, the list is empty, or a report is not an object, is nested too deep or has a ' +
        '`_links.type.href` naming another type (the first such report named by its index).',
      NOT_A_LIST_MESSAGE,
    ),
    ApiErrorResponse(
      503,
      'The database is unavailable, or every place for a batch is taken (BATCHES_IN_FLIGHT; `' +
        BATCHES_BUSY_MESSAGE +
        '`); nothing was stored. Retry after `Retry-After` seconds.',
      DATABASE_UNAVAILABLE_MESSAGE,
    ),
  );
}
