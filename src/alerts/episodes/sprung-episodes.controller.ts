import { Controller, Get, Inject } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { MoreThanOrEqual, Repository } from 'typeorm';
import { Authenticated } from '../../auth/authenticated.decorator.js';
import type { AuthenticatedUser } from '../../auth/authenticated-user.js';
import { CurrentUser } from '../../auth/current-user.decorator.js';
import { CLOCK, type Clock } from '../../common/time/clock.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { resolveDeviceTime } from '../../sensor-record/values/device-time.js';
import type { Answer } from '../../common/http/answer.js';
import { csvAnswer, jsonAnswer } from '../../serialization/list-answers.js';
import { type ReadRequest, ReadRequestOf } from '../../serialization/read-request.decorator.js';
import { SENSORS_DENIED_MESSAGE } from '../../sensor/sensor.messages.js';
import { SprungEpisodeEntity } from '../sprung-episode.entity.js';
import { ListSprungEpisodesDocs } from './sprung-episodes.api-docs.js';
import { SPRUNG_EPISODE_MEMBERS, toSprungEpisodeView } from './sprung-episode.view.js';
import { EPISODE_LIST_MAX_LIMIT, SprungEpisodesQueryDto } from './sprung-episodes-query.dto.js';

const SPRUNG_EPISODES_PATH = 'api-sensor/sprung-episodes';
const FORMATS = ['json', 'csv'] as const;
type Format = (typeof FORMATS)[number];

/**
 * The caller's sprung episodes and whether each trap was set again within 24 hours
 * (docs/alerts.md#the-24-hour-clock): the report a project shows its funders or an inspector.
 */
@Controller(SPRUNG_EPISODES_PATH)
export class SprungEpisodesController {
  constructor(
    @InjectRepository(SprungEpisodeEntity) private readonly episodes: Repository<SprungEpisodeEntity>,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @ListSprungEpisodesDocs(FORMATS)
  @Authenticated({ deniedMessage: SENSORS_DENIED_MESSAGE })
  async list(
    @ReadRequestOf(SprungEpisodesQueryDto, FORMATS, 'json') read: ReadRequest<SprungEpisodesQueryDto, Format>,
    @CurrentUser() user: AuthenticatedUser,
  ): Promise<Answer> {
    const { query, format } = read;
    const since = query.since?.parsed ? resolveDeviceTime(query.since.parsed, this.config.siteTimezone) : undefined;
    const rows = await this.episodes.find({
      where: { uid: user.uid, ...(since ? { sprungAt: MoreThanOrEqual(since) } : {}) },
      order: { sprungAt: 'ASC', id: 'ASC' },
      take: query.limit ?? EPISODE_LIST_MAX_LIMIT,
    });
    const now = this.clock.now();
    const episodes = rows.map((row) => toSprungEpisodeView(row, now));
    if (format === 'csv') return csvAnswer(episodes, (episode) => episode, SPRUNG_EPISODE_MEMBERS, 'sprung-episodes.csv');
    return jsonAnswer(JSON.stringify({ episodes }));
  }
}
