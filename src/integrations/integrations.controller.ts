import { Controller, Inject, Post, Res, StreamableFile } from '@nestjs/common';
import type { Response } from 'express';
import { ApiException } from '../common/errors/api-exception.js';
import { PlainQuery, type PlainQueryParameter } from '../common/query/plain-query-parameter.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { addLogContext } from '../logging/log-context.js';
import { Submission, SubmissionText } from '../sensor-record/submission/submission.decorators.js';
import { sensorRecordUrl } from '../serialization/hal-links.js';
import { SerializationService } from '../serialization/serialization.service.js';
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
  private readonly baseUrl: string;

  constructor(
    private readonly uplinks: UplinksService,
    private readonly serialization: SerializationService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.baseUrl = config.baseUrl;
  }

  @Post(UPLINK_PATHS.tts)
  @IntegrationEndpoint('tts')
  @TtsUplinkDocs()
  async tts(
    @Submission(new ParseUplinkPipe('tts')) body: Record<string, unknown>,
    @SubmissionText() requestBody: string,
    @CurrentIntegration() caller: IntegrationCaller,
    @Res({ passthrough: true }) response: Response,
  ): Promise<StreamableFile | Record<string, unknown>> {
    const message = readTtsMessage(body);
    if (!message) throw new ApiException(422, UPLINK_BODY_MESSAGES.notTts);
    if (message.kind === 'other')
      return this.answer(response, caller, { outcome: 'ignored', message: IGNORED_MESSAGES.ttsMessage(message.type) });
    return this.answer(response, caller, await this.uplinks.receive(message.reading, caller, requestBody));
  }

  @Post(UPLINK_PATHS.chirpstack)
  @IntegrationEndpoint('chirpstack')
  @ChirpstackEventDocs()
  async chirpstack(
    @Submission(new ParseUplinkPipe('chirpstack')) body: Record<string, unknown>,
    @SubmissionText() requestBody: string,
    @PlainQuery('event') eventParameter: PlainQueryParameter,
    @CurrentIntegration() caller: IntegrationCaller,
    @Res({ passthrough: true }) response: Response,
  ): Promise<StreamableFile | Record<string, unknown>> {
    const event = readChirpstackEvent(eventParameter);
    // Every other event, those of later ChirpStack versions included, is acknowledged: ChirpStack does not retry.
    if (event !== CHIRPSTACK_UPLINK_EVENT) {
      return this.answer(response, caller, { outcome: 'ignored', message: IGNORED_MESSAGES.chirpstackEvent(event) });
    }
    const reading = readChirpstackUplink(body);
    if (!reading) throw new ApiException(422, UPLINK_BODY_MESSAGES.notChirpstack);
    return this.answer(response, caller, await this.uplinks.receive(reading, caller, requestBody));
  }

  /** A record as the sensor-record route renders it with `_format=json`; anything else as `{"message": …}`. */
  private answer(response: Response, caller: IntegrationCaller, answer: UplinkAnswer): StreamableFile | Record<string, unknown> {
    // request.user is the integration here, not a user: the log line names both.
    addLogContext(response, { uid: caller.user.uid, integration_id: caller.integrationId, uplink: answer.outcome });
    switch (answer.outcome) {
      case 'stored':
      case 'duplicate': {
        const { record } = answer;
        addLogContext(response, { dev_id: record.fields.devId });
        const rendered = this.serialization.render(record, 'json');
        const bytes = Buffer.from(rendered.body, 'utf8');
        response.status(answer.outcome === 'stored' ? 201 : 200);
        response.setHeader('Content-Type', rendered.contentType);
        response.setHeader('Location', sensorRecordUrl(this.baseUrl, record.nid));
        return new StreamableFile(bytes, { type: rendered.contentType, length: bytes.length });
      }
      case 'refused':
        response.status(202);
        return { message: answer.message, reason: answer.reason };
      case 'ignored':
        response.status(200);
        return { message: answer.message };
    }
  }
}
