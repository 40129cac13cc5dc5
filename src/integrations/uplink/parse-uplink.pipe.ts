import type { PipeTransform } from '@nestjs/common';
import { ApiException } from '../../common/errors/api-exception.js';
import { mediaTypeOf, readJsonObject } from '../../sensor-record/submission/json-submission.js';
import { SUBMISSION_BODY_LIMIT } from '../../sensor-record/submission/parse-submission.pipe.js';
import type { RawSubmission } from '../../sensor-record/submission/submission.decorators.js';
import type { IntegrationNetwork } from '../integration-network.js';

/** Both network servers post `application/json`. */
const UPLINK_MEDIA_TYPES: ReadonlySet<string> = new Set(['application/json']);
/** What the network servers send when set to their Protocol Buffers format instead of JSON. */
const PROTOBUF_MEDIA_TYPES = new Set(['application/octet-stream', 'application/x-protobuf', 'application/protobuf']);

/** The 415 of a Protocol Buffers body: where to choose JSON instead. */
export const PROTOBUF_MESSAGES: Record<IntegrationNetwork, string> = {
  tts: 'The Things Stack sent Protocol Buffers: set the webhook format to JSON.',
  chirpstack: "ChirpStack sent Protobuf: set the HTTP integration's payload encoding (marshaler) to JSON.",
};

/** What the 422 of a body that is not the network server's message begins with. */
const NOT_THE_MESSAGE: Record<IntegrationNetwork, string> = {
  tts: 'The body is not a message of The Things Stack',
  chirpstack: 'The body is not a ChirpStack uplink event',
};

/** The 422 of a JSON object that is not what the network server posts, and the 400 of a ChirpStack post without its event. */
export const UPLINK_BODY_MESSAGES = {
  notTts: `${NOT_THE_MESSAGE.tts}: it has no end_device_ids object.`,
  notChirpstack: `${NOT_THE_MESSAGE.chirpstack}: it has no deviceInfo object.`,
  /** A member the network server sends with one JSON type, present with another. */
  wrongType: (network: IntegrationNetwork, path: string, expected: string) => `${NOT_THE_MESSAGE[network]}: ${path} is not ${expected}.`,
  noEvent: 'The query parameter "event" is missing: ChirpStack names each event in it (?event=up).',
  repeatedEvent: 'The query parameter "event" is given more than once: ChirpStack names one event in it (?event=up).',
  eventNotPlain: 'The query parameter "event" is not one plain value: ChirpStack names one event in it (?event=up).',
} as const;

/**
 * An uplink's body as bytes and as JSON (docs/interface.md#the-things-stack): size, content type,
 * UTF-8, syntax, nesting and an object at the top, with the sensor-record route's texts.
 */
export class ParseUplinkPipe implements PipeTransform<RawSubmission, Record<string, unknown>> {
  constructor(private readonly network: IntegrationNetwork) {}

  transform(body: RawSubmission): Record<string, unknown> {
    const mediaType = mediaTypeOf(body.contentType)?.type;
    if (!body.tooLarge && mediaType !== undefined && PROTOBUF_MEDIA_TYPES.has(mediaType)) {
      throw new ApiException(415, PROTOBUF_MESSAGES[this.network]);
    }
    return readJsonObject(body, SUBMISSION_BODY_LIMIT.shown, UPLINK_MEDIA_TYPES);
  }
}
