import { Controller, Get, HttpStatus, Inject, Req, StreamableFile } from '@nestjs/common';
import type { Request } from 'express';
import { Authenticated } from '../auth/authenticated.decorator.js';
import type { AuthenticatedUser } from '../auth/authenticated-user.js';
import { CurrentUser } from '../auth/current-user.decorator.js';
import { ApiException } from '../common/errors/api-exception.js';
import { invalidQueryMessage } from '../common/query/query-parameters.pipe.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { Answer } from '../common/http/answer.js';
import { csvAnswer, nextLink } from '../serialization/list-answers.js';
import { type ReadRequest, ReadRequestOf } from '../serialization/read-request.decorator.js';
import { CONTENT_TYPES, DEFAULT_RESPONSE_FORMAT, RESPONSE_FORMATS } from '../serialization/response-format.js';
import { SerializationService } from '../serialization/serialization.service.js';
import { formatUtcTimestamp } from '../serialization/timestamp-format.js';
import { resolveDeviceTime } from '../sensor-record/values/device-time.js';
import { FEED_DEFAULT_LIMIT, FeedQueryDto, feedReasons } from './dto/feed-query.dto.js';
import { feedBody } from './feed-body.js';
import { FEED_DENIED_MESSAGE } from './feed.messages.js';
import type { FeedPoint } from './feed-point.js';
import { RECORD_CSV_COLUMNS, recordCsvRow } from './record-csv.js';
import { FeedDocs } from './sensor-record-feed.api-docs.js';
import { SensorRecordFeedService } from './sensor-record-feed.service.js';

const FEED_PATH = 'api-sensor/sensor-records';
const FEED_FORMATS = [...RESPONSE_FORMATS, 'csv'] as const;
type FeedFormat = (typeof FEED_FORMATS)[number];

/** The records feed: the caller's records since a point, a page at a time (docs/interface.md#get-api-sensorsensor-records). */
@Controller(FEED_PATH)
export class SensorRecordFeedController {
  constructor(
    private readonly feed: SensorRecordFeedService,
    private readonly serialization: SerializationService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @FeedDocs()
  @Authenticated({ deniedMessage: FEED_DENIED_MESSAGE })
  async list(
    @ReadRequestOf(FeedQueryDto, FEED_FORMATS, DEFAULT_RESPONSE_FORMAT) read: ReadRequest<FeedQueryDto, FeedFormat>,
    @CurrentUser() user: AuthenticatedUser,
    @Req() request: Request,
  ): Promise<Answer<StreamableFile>> {
    const { format, query } = read;
    if (query.columns !== undefined && format !== 'csv') {
      throw new ApiException(HttpStatus.BAD_REQUEST, invalidQueryMessage([`columns: ${feedReasons.csvOnly}`]));
    }
    // A CSV without a limit is every settled record from the point on: an export.
    const limit = format === 'csv' ? query.limit : (query.limit ?? FEED_DEFAULT_LIMIT);
    const page = await this.feed.read(user.uid, this.start(query), limit);
    const next = this.url(page.next, query, format);
    const headers = { Link: nextLink(next) };
    if (format === 'csv') {
      const timezone = this.config.siteTimezone;
      const columns = query.columns ?? RECORD_CSV_COLUMNS;
      return csvAnswer(page.records, (record) => recordCsvRow(record, timezone), columns, 'sensor-records.csv', headers);
    }
    const links = { self: `${this.config.baseUrl}${request.originalUrl}`, next };
    // Streamed (Nest's public way to stream) as the records are rendered: a page of thousands is never whole in memory.
    const body = feedBody(page.records, format, links, page.more, this.serialization);
    return new Answer(new StreamableFile(body, { type: CONTENT_TYPES[format] }), { headers });
  }

  /** `changed_since` read as a device time is (an offset-less one in the site's zone); from the beginning without it. */
  private start(query: FeedQueryDto): FeedPoint {
    const since = query.changed_since?.parsed;
    return {
      changed: since ? resolveDeviceTime(since, this.config.siteTimezone) : new Date(0),
      nid: query.changed_since_nid ?? 0,
    };
  }

  private url(point: FeedPoint, query: FeedQueryDto, format: FeedFormat): string {
    const parameters = new URLSearchParams({ changed_since: formatUtcTimestamp(point.changed) });
    if (point.nid > 0) parameters.set('changed_since_nid', String(point.nid));
    if (query.limit !== undefined) parameters.set('limit', String(query.limit));
    if (query.columns !== undefined) parameters.set('columns', query.columns.join(','));
    parameters.set('_format', format);
    return `${this.config.baseUrl}/${FEED_PATH}?${parameters.toString()}`;
  }
}
