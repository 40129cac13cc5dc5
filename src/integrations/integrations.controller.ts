import { Controller, HttpStatus, Post } from '@nestjs/common';
import { ApiException } from '../common/errors/api-exception.js';
import { PlainQuery, type PlainQueryParameter } from '../common/query/plain-query-parameter.js';
import { type LogFields, RequestLog } from '../logging/request-log.decorator.js';
import { Answer } from '../common/http/answer.js';
import { SerializationService } from '../serialization/serialization.service.js';
import { Submission, SubmissionText } from '../sensor-record/submission/submission.decorators.js';
import { ChirpstackEventDocs, TtsUplinkDocs } from './integrations.api-docs.js';
import { UPLINK_PATHS } from './integration-network.js';
import type { IntegrationCaller } from './key/integration-caller.js';
import { CurrentIntegration, IntegrationEndpoint } from './key/integration-endpoint.decorator.js';
import { CHIRPSTACK_UPLINK_EVENT, readChirpstackEvent, readChirpstackUplink } from './uplink/chirpstack-uplink.reader.js';
import { ParseUplinkPipe, UPLINK_BODY_MESSAGES } from './uplink/parse-uplink.pipe.js';
import { IGNORED_MESSAGES, type UplinkAnswer } from './uplink/uplink-answer.js';
import { readTtsMessage } from './uplink/tts-uplink.reader.js';
import { UplinksService } from './uplinks.service.js';

/**
 * The addresses The Things Stack's webhooks and ChirpStack's HTTP integration post to, with an
 * integration key (docs/interface.md#network-server-integrations). Answers are JSON: the record as
 * the sensor-record route renders it with `_format=json`, or `{"message": …}`.
 */
@Controller()
export class IntegrationsController {
  constructor(
    private readonly uplinks: UplinksService,
    private readonly serialization: SerializationService,
  ) {}

  @Post(UPLINK_PATHS.tts)
  @IntegrationEndpoint('tts')
  @TtsUplinkDocs()
  async tts(
    @Submission(new ParseUplinkPipe('tts')) body: Record<string, unknown>,
    @SubmissionText() requestBody: string,
    @CurrentIntegration() caller: IntegrationCaller,
    @RequestLog() log: LogFields,
  ): Promise<Answer> {
    const message = readTtsMessage(body);
    if (!message) throw new ApiException(422, UPLINK_BODY_MESSAGES.notTts);
    if (message.kind === 'other')
      return this.answer(log, caller, { outcome: 'ignored', message: IGNORED_MESSAGES.ttsMessage(message.type) });
    return this.answer(log, caller, await this.uplinks.receive(message.reading, caller, requestBody));
  }

  @Post(UPLINK_PATHS.chirpstack)
  @IntegrationEndpoint('chirpstack')
  @ChirpstackEventDocs()
  async chirpstack(
    @Submission(new ParseUplinkPipe('chirpstack')) body: Record<string, unknown>,
    @SubmissionText() requestBody: string,
    @PlainQuery('event') eventParameter: PlainQueryParameter,
    @CurrentIntegration() caller: IntegrationCaller,
    @RequestLog() log: LogFields,
  ): Promise<Answer> {
    const event = readChirpstackEvent(eventParameter);
    // Every other event, those of later ChirpStack versions included, is acknowledged: ChirpStack does not retry.
    if (event !== CHIRPSTACK_UPLINK_EVENT) {
      return this.answer(log, caller, { outcome: 'ignored', message: IGNORED_MESSAGES.chirpstackEvent(event) });
    }
    const reading = readChirpstackUplink(body);
    if (!reading) throw new ApiException(422, UPLINK_BODY_MESSAGES.notChirpstack);
    return this.answer(log, caller, await this.uplinks.receive(reading, caller, requestBody));
  }

  /** The record as the sensor-record route answers a submission with `_format=json`; anything else as `{"message": …}`. */
  private answer(log: LogFields, caller: IntegrationCaller, uplink: UplinkAnswer): Answer {
    // request.user is the integration here, not a user: the log line names both.
    log({ uid: caller.user.uid, integration_id: caller.integrationId, uplink: uplink.outcome });
    switch (uplink.outcome) {
      case 'stored':
      case 'duplicate':
        log({ dev_id: uplink.record.fields.devId });
        return this.serialization.submissionAnswer(uplink.record, 'json', uplink.outcome === 'stored' ? HttpStatus.CREATED : HttpStatus.OK);
      case 'refused':
        return new Answer({ message: uplink.message, reason: uplink.reason }, { status: HttpStatus.ACCEPTED });
      case 'ignored':
        return new Answer({ message: uplink.message }, { status: HttpStatus.OK });
    }
  }
}
