import { type DataSource, type EntityManager, In, IsNull } from 'typeorm';
import { runStatements } from '../database/run-in-transaction.js';
import type { SensorTransition } from '../sensor/projection/sensor-transition.js';
import { SprungEpisodeEntity } from './sprung-episode.entity.js';

/** The episode a transition opened or closed. */
export interface EpisodeOf {
  id: number;
  sprungAt: Date;
}

/**
 * Opens an episode for each `sprung` and closes the sensor's open one for each `reset`, in the
 * record's transaction; answers the episode each of them opened or closed, by its transition, where
 * `wanted` says that answer is needed (a sensor some alert may notify of). Elsewhere no id is read
 * back: the episodes opened go in one INSERT (sent before any reset, which may close one of them),
 * and the UPDATE alone closes an episode.
 */
export async function keepEpisodes(
  manager: EntityManager,
  transitions: SensorTransition[],
  wanted: (transition: SensorTransition) => boolean = () => true,
): Promise<Map<SensorTransition, EpisodeOf>> {
  const touched = new Map<SensorTransition, EpisodeOf>();
  const episodes = manager.getRepository(SprungEpisodeEntity);
  let opened: Array<Partial<SprungEpisodeEntity>> = [];
  const insertOpened = async () => {
    if (opened.length > 0) await episodes.insert(opened);
    opened = [];
  };
  for (const transition of transitions) {
    const { uid, devId } = transition.sensor;
    if (transition.kind === 'sprung') {
      const episode = { uid, devId, sprungAt: transition.at, sprungNid: transition.nid!, resetAt: null, resetNid: null };
      if (!wanted(transition)) {
        opened.push(episode);
        continue;
      }
      const inserted = await episodes.insert(episode);
      touched.set(transition, { id: Number(inserted.identifiers[0]!.id), sprungAt: transition.at });
    } else if (transition.kind === 'reset') {
      await insertOpened();
      const open = wanted(transition) && (await episodes.findOne({ where: { uid, devId, resetAt: IsNull() }, order: { id: 'DESC' } }));
      if (open) touched.set(transition, { id: open.id, sprungAt: open.sprungAt });
      await manager
        .createQueryBuilder()
        .update(SprungEpisodeEntity)
        .set({ resetAt: transition.at, resetNid: transition.nid })
        .where('uid = :uid AND dev_id = :devId AND reset_at IS NULL', { uid, devId })
        .execute();
    }
  }
  await insertOpened();
  return touched;
}

/** Notes when the first notification of each episode was delivered (the report's `first_notified_at`); a later one changes nothing. */
export async function markFirstDelivery(dataSource: DataSource, episodeIds: number[], at: Date): Promise<void> {
  if (episodeIds.length === 0) return;
  await runStatements(dataSource, (manager) =>
    manager
      .getRepository(SprungEpisodeEntity)
      .update({ id: In([...new Set(episodeIds)]), firstDeliveredAt: IsNull() }, { firstDeliveredAt: at }),
  );
}
