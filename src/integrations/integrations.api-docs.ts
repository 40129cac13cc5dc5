import { applyDecorators } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiConsumes, ApiOperation, ApiProduces, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { DATABASE_UNAVAILABLE_MESSAGE } from '../common/errors/database-unavailable.js';
import { BODY_TOO_LARGE_MESSAGE, DEFAULT_BODY_LIMIT } from '../common/http/route-messages.js';
import { ApiErrorResponse } from '../openapi/error-response.js';
import type { BearerScheme } from '../openapi/openapi.setup.js';
import { INTEGRATION_KEY_BYTES } from './admin/integrations.service.js';
import {
  CHIRPSTACK_RECORD_EXAMPLE,
  CHIRPSTACK_UPLINK_EXAMPLE,
  TTS_RECORD_EXAMPLE,
  TTS_UPLINK_EXAMPLE,
} from './integrations.api-examples.js';
import type { IntegrationNetwork } from './integration-network.js';
import { INTEGRATION_KEY_MESSAGES } from './key/integration-key-refusal.js';
import { CHIRPSTACK_OTHER_EVENTS, CHIRPSTACK_UPLINK_EVENT } from './uplink/chirpstack-uplink.reader.js';
import { PROTOBUF_MESSAGES, UPLINK_BODY_MESSAGES } from './uplink/parse-uplink.pipe.js';
import { IGNORED_MESSAGES, REFUSAL_MESSAGES, REFUSAL_REASONS } from './uplink/uplink-answer.js';

// The messages come from the code that answers them; the request bodies are examples of what each
// network server posts (docs/interface.md#network-server-integrations).

/** How the integration routes take their key, for the OpenAPI document (`createApp` adds it). */
export const INTEGRATION_KEY_SCHEME: BearerScheme = {
  name: 'integration-key',
  options: {
    type: 'http',
    scheme: 'bearer',
    // Swagger's default says JWT; an integration key is an opaque string.
    bearerFormat: undefined,
    description:
      'An integration key from `integration:create`, for the network-server routes: an opaque string, ' +
      `${INTEGRATION_KEY_BYTES} random bytes in base64url (${Math.ceil((INTEGRATION_KEY_BYTES * 4) / 3)} characters).`,
  },
};

/** The record each network server's example uplink is stored as. */
const RECORD_EXAMPLES: Record<IntegrationNetwork, object> = { tts: TTS_RECORD_EXAMPLE, chirpstack: CHIRPSTACK_RECORD_EXAMPLE };

function integrationDocs(network: IntegrationNetwork) {
  return [
    ApiTags('Network-server integrations'),
    ApiBearerAuth(INTEGRATION_KEY_SCHEME.name),
    ApiConsumes('application/json'),
    ApiProduces('application/json'),
    ApiResponse({
      status: 201,
      description: 'The uplink is stored: the record as `_format=json` renders it, `Location` naming it. Sent only after the COMMIT.',
      headers: { Location: { description: '`${BASE_URL}/node/<nid>`', schema: { type: 'string' } } },
      content: { 'application/json': { schema: { type: 'object' }, example: RECORD_EXAMPLES[network] } },
    }),
    ApiResponse({
      status: 202,
      description:
        'The uplink cannot become a record (simulated, no decoded payload, readings that fail validation): nothing stored, ' +
        'the reason logged and counted in `integration_uplinks_refused_total`.',
      content: {
        'application/json': {
          schema: {
            type: 'object',
            required: ['message', 'reason'],
            properties: { message: { type: 'string' }, reason: { type: 'string', enum: [...REFUSAL_REASONS] } },
          },
          example: { message: REFUSAL_MESSAGES.noDecodedPayload(network), reason: 'no_decoded_payload' },
        },
      },
    }),
    ApiErrorResponse(
      401,
      'The integration key is missing, unknown or revoked (counted toward the per-address limit).',
      INTEGRATION_KEY_MESSAGES.unknown,
    ),
    ApiErrorResponse(
      403,
      "The key is good but its user is blocked or may not create records, or it is the other network server's.",
      INTEGRATION_KEY_MESSAGES.userBlocked,
    ),
    ApiErrorResponse(413, `The body is larger than ${DEFAULT_BODY_LIMIT.shown}.`, BODY_TOO_LARGE_MESSAGE),
    ApiErrorResponse(415, 'The body is not JSON: the network server is set to Protocol Buffers.', PROTOBUF_MESSAGES[network]),
    ApiErrorResponse(
      429,
      'Too many missing or invalid keys from this address (the limit of failed password grants); `Retry-After` says when to try again.',
      INTEGRATION_KEY_MESSAGES.tooMany,
    ),
    ApiErrorResponse(
      503,
      'The database is unavailable; nothing was stored. Retry after `Retry-After` seconds.',
      DATABASE_UNAVAILABLE_MESSAGE,
    ),
  ];
}

export function TtsUplinkDocs() {
  return applyDecorators(
    ...integrationDocs('tts'),
    ApiOperation({
      summary: 'The Things Stack webhook: uplink message',
      description:
        'The Things Stack (v3) application server posts each uplink message here (webhook format JSON, base URL ' +
        '`${BASE_URL}/api-sensor/integrations/tts`, uplink message path `/uplink`, header `Authorization: Bearer <api_key>`). ' +
        'Each uplink becomes one sensor record of the integration’s user, once.',
    }),
    ApiBody({
      description: "The Things Stack's `ApplicationUp` with `uplink_message`; other messages are acknowledged (200) and not stored.",
      schema: { type: 'object', required: ['end_device_ids'] },
      examples: {
        uplink: { summary: 'An uplink heard by two gateways, the first with GPS time', value: TTS_UPLINK_EXAMPLE },
        simulated: {
          summary: 'An uplink simulated in the console (answered 202)',
          value: { ...TTS_UPLINK_EXAMPLE, simulated: true },
        },
      },
    }),
    ApiResponse({
      status: 200,
      description:
        'The same uplink was stored before (a retry, a second copy): the record stored the first time. Or a message other than an uplink, acknowledged.',
      content: {
        'application/json': {
          schema: { type: 'object' },
          examples: {
            duplicate: { summary: 'A repeated delivery', value: TTS_RECORD_EXAMPLE },
            other: { summary: 'A join accept', value: { message: IGNORED_MESSAGES.ttsMessage('join_accept') } },
          },
        },
      },
    }),
    ApiErrorResponse(
      422,
      'The body is not JSON, not an object, or not a message of The Things Stack (a member of it of the wrong JSON type included).',
      UPLINK_BODY_MESSAGES.notTts,
    ),
  );
}

export function ChirpstackEventDocs() {
  return applyDecorators(
    ...integrationDocs('chirpstack'),
    ApiOperation({
      summary: 'ChirpStack HTTP integration: an event',
      description:
        'ChirpStack (v4) posts every event of an application here (HTTP integration, payload encoding JSON, endpoint ' +
        '`${BASE_URL}/api-sensor/integrations/chirpstack`, header `Authorization: Bearer <api_key>`). Each `up` event becomes ' +
        'one sensor record of the integration’s user, once; the other events are acknowledged and not stored.',
    }),
    ApiQuery({
      name: 'event',
      required: true,
      enum: [CHIRPSTACK_UPLINK_EVENT, ...CHIRPSTACK_OTHER_EVENTS],
      description: 'Set by ChirpStack. Only `up` is stored; any other event is acknowledged with 200.',
    }),
    ApiBody({
      description: "ChirpStack's `UplinkEvent` for `event=up`; for other events, ChirpStack's message for the event.",
      schema: { type: 'object' },
      examples: { up: { summary: 'A bait-level report whose codec names the fields with `field_`', value: CHIRPSTACK_UPLINK_EXAMPLE } },
    }),
    ApiResponse({
      status: 200,
      description: 'The same uplink was stored before: the record stored the first time. Or an event other than `up`, acknowledged.',
      content: {
        'application/json': {
          schema: { type: 'object' },
          examples: {
            duplicate: { summary: 'A repeated delivery', value: CHIRPSTACK_RECORD_EXAMPLE },
            other: { summary: 'A status event', value: { message: IGNORED_MESSAGES.chirpstackEvent('status') } },
          },
        },
      },
    }),
    ApiErrorResponse(
      400,
      'The `event` query parameter is missing, given more than once, or not one plain value.',
      UPLINK_BODY_MESSAGES.noEvent,
    ),
    ApiErrorResponse(
      422,
      'The body is not JSON, not an object, or not a ChirpStack uplink event (a member of it of the wrong JSON type included).',
      UPLINK_BODY_MESSAGES.notChirpstack,
    ),
  );
}
