import { type HttpStatus, Inject, Injectable } from '@nestjs/common';
import { Answer } from '../common/http/answer.js';
import { APP_CONFIG } from '../config/app-config.js';
import type { AppConfig } from '../config/app-config.js';
import { sensorRecordUrl } from './hal-links.js';
import { normalizeHalJson } from './hal-json-normalizer.js';
import { normalizeJson } from './json-normalizer.js';
import { CONTENT_TYPES, type ResponseFormat } from './response-format.js';
import type { SensorRecordModel } from './sensor-record.model.js';
import { normalizeUserHalJson, normalizeUserJson, type UserModel } from './user-normalizer.js';
import { encodeXml } from './xml-encoder.js';

export interface RenderedRecord {
  contentType: string;
  body: string;
}

@Injectable()
export class SerializationService {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** The exact response body text and its Content-Type for a record in a format. */
  render(record: SensorRecordModel, format: ResponseFormat): RenderedRecord {
    return { contentType: CONTENT_TYPES[format], body: this.body(record, format) };
  }

  /**
   * The answer to a submission (the sensor-record route's, a network server's): the record's bytes
   * in `format`, `Location` naming it, no ETag; `status` where the outcome decides it.
   */
  submissionAnswer(record: SensorRecordModel, format: ResponseFormat, status?: HttpStatus): Answer<Buffer> {
    const rendered = this.render(record, format);
    const headers = { 'Content-Type': rendered.contentType, Location: sensorRecordUrl(this.config.baseUrl, record.nid) };
    return new Answer(Buffer.from(rendered.body, 'utf8'), { status, headers });
  }

  /** The same for an account (`GET /user/{uid}`). */
  renderUser(user: UserModel, format: ResponseFormat): RenderedRecord {
    const body =
      format === 'json'
        ? JSON.stringify(normalizeUserJson(user))
        : format === 'hal_json'
          ? JSON.stringify(normalizeUserHalJson(user, this.config.baseUrl))
          : encodeXml(normalizeUserJson(user));
    return { contentType: CONTENT_TYPES[format], body };
  }

  private body(record: SensorRecordModel, format: ResponseFormat): string {
    const { baseUrl, siteTimezone } = this.config;
    switch (format) {
      case 'json':
        return JSON.stringify(normalizeJson(record, siteTimezone));
      case 'hal_json':
        return JSON.stringify(normalizeHalJson(record, baseUrl, siteTimezone));
      case 'xml':
        return encodeXml(normalizeJson(record, siteTimezone));
    }
  }
}
