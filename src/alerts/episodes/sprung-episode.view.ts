import { formatUtcTimestamp } from '../../serialization/timestamp-format.js';
import { SPRUNG_DEADLINE_SECONDS } from '../alert-events.js';
import type { SprungEpisodeEntity } from '../sprung-episode.entity.js';

/** An episode as GET /api-sensor/sprung-episodes answers it; member order is the CSV's column order. */
export interface SprungEpisodeView {
  dev_id: string;
  sprung_at: string;
  reset_at: string | null;
  first_notified_at: string | null;
  hours_sprung: number;
  /** true or false once decided: reset within 24 h of sprung_at, or 24 h passed; null while open and within them. */
  reset_within_24h: boolean | null;
}

export const SPRUNG_EPISODE_MEMBERS: ReadonlyArray<keyof SprungEpisodeView> = [
  'dev_id',
  'sprung_at',
  'reset_at',
  'first_notified_at',
  'hours_sprung',
  'reset_within_24h',
];

export function toSprungEpisodeView(episode: SprungEpisodeEntity, now: number): SprungEpisodeView {
  const end = episode.resetAt?.getTime() ?? now;
  const sprungMs = Math.max(0, end - episode.sprungAt.getTime());
  const withinDeadline = sprungMs <= SPRUNG_DEADLINE_SECONDS * 1000;
  return {
    dev_id: episode.devId,
    sprung_at: formatUtcTimestamp(episode.sprungAt),
    reset_at: episode.resetAt && formatUtcTimestamp(episode.resetAt),
    first_notified_at: episode.firstDeliveredAt && formatUtcTimestamp(episode.firstDeliveredAt),
    hours_sprung: Math.round(sprungMs / 36_000) / 100,
    reset_within_24h: episode.resetAt ? withinDeadline : withinDeadline ? null : false,
  };
}
