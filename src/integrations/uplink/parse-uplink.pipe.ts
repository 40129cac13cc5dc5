import type { PipeTransform } from '@nestjs/common';
import { ApiException } from '../../common/errors/api-exception.js';
import { BODY_TOO_LARGE_MESSAGE } from '../../common/http/route-messages.js';
import { exceedsNesting } from '../../sensor-record/submission/nesting-depth.js';
import { MAX_NESTING_DEPTH, unsupportedContentTypeMessage } from '../../sensor-record/submission/parse-submission.pipe.js';
import type { RawSubmission } from '../../sensor-record/submission/submission.decorators.js';
import { isPlainObject } from '../../sensor-record/validation/unwrap-member.js';
import type { IntegrationNetwork } from '../integration-network.js';

const UTF8_CHARSETS = new Set(['utf-8', 'utf8']);
/** What the network servers send when set to their Protocol Buffers format instead of JSON. */
const PROTOBUF_MEDIA_TYPES = new Set(['application/octet-stream', 'application/x-protobuf', 'application/protobuf']);

/** The 415 of a Protocol Buffers body: where to choose JSON instead. */
export const PROTOBUF_MESSAGES: Record<IntegrationNetwork, string> = {
  tts: 'The Things Stack sent Protocol Buffers: set the webhook format to JSON.',
  chirpstack: "ChirpStack sent Protobuf: set the HTTP integration's payload encoding (marshaler) to JSON.",
};

/** The 422 of a JSON object that is not what the network server posts, and the 400 of a ChirpStack post without its event. */
export const UPLINK_BODY_MESSAGES = {
  notTts: 'The body is not a message of The Things Stack: it has no end_device_ids object.',
  notChirpstack: 'The body is not a ChirpStack uplink event: it has no deviceInfo object.',
  noEvent: 'The query parameter "event" is missing: ChirpStack names each event in it (?event=up).',
} as const;

/**
 * An uplink's body as bytes and as JSON (docs/interface.md#the-things-stack): size, content type,
 * UTF-8, syntax, nesting and an object at the top, with the sensor-record route's texts.
 */
export class ParseUplinkPipe implements PipeTransform<RawSubmission, Record<string, unknown>> {
  constructor(private readonly network: IntegrationNetwork) {}

  transform(body: RawSubmission): Record<string, unknown> {
    if (body.tooLarge) throw new ApiException(413, BODY_TOO_LARGE_MESSAGE);
    this.assertJson(body.contentType);
    if (body.text === undefined) throw new ApiException(422, 'Malformed UTF-8 characters, possibly incorrectly encoded');
    let document: unknown;
    try {
      document = JSON.parse(body.text);
    } catch {
      throw new ApiException(422, 'Syntax error');
    }
    if (exceedsNesting(document, MAX_NESTING_DEPTH)) {
      throw new ApiException(422, `The request body is nested deeper than ${MAX_NESTING_DEPTH} levels.`);
    }
    if (!isPlainObject(document)) throw new ApiException(422, 'The request body must be a JSON object.');
    return document;
  }

  private assertJson(header: string | undefined): void {
    if (!header?.trim()) throw new ApiException(415, 'No "Content-Type" request header specified');
    const [type, ...parameters] = header.split(';').map((part) => part.trim());
    const mediaType = type!.toLowerCase();
    if (PROTOBUF_MEDIA_TYPES.has(mediaType)) throw new ApiException(415, PROTOBUF_MESSAGES[this.network]);
    if (mediaType !== 'application/json') throw new ApiException(415, unsupportedContentTypeMessage(header));
    const charset = parameters.find((parameter) => /^charset\s*=/i.test(parameter));
    const name = charset
      ?.slice(charset.indexOf('=') + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
    if (name !== undefined && !UTF8_CHARSETS.has(name.toLowerCase())) {
      throw new ApiException(415, `The request body must be UTF-8 JSON; charset "${name}" is not supported.`);
    }
  }
}
