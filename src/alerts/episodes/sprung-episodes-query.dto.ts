import { QueryInteger } from '../../common/query/query-rules.js';
import { QueryTime } from '../../common/query/query-time.js';
import type { SubmittedTime } from '../../sensor-record/values/device-time.js';

export const EPISODE_LIST_MAX_LIMIT = 10_000;

/** `GET /api-sensor/sprung-episodes` (docs/alerts.md#the-24-hour-clock). */
export class SprungEpisodesQueryDto {
  /** Episodes sprung at or after this instant; without it, every one. */
  @QueryTime()
  since?: SubmittedTime;

  /** At most this many, the earliest sprung first. */
  @QueryInteger(1, EPISODE_LIST_MAX_LIMIT)
  limit?: number;
}
