import type { DataSource, EntityManager } from 'typeorm';
import { fromColumnValue, rowsChanged, toColumnValue } from '../database/plain-sql.js';
import { runStatements } from '../database/run-in-transaction.js';
import { queryTogether, type Statement } from '../database/send-together.js';
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
 * `wanted` says that answer is needed (a sensor some alert may notify of). The episodes opened go in
 * one INSERT, sent before any reset (which may close one of them); their ids, where wanted, are the
 * INSERT's own for one row and else read back in one SELECT by their sprung reports (an INSERT of
 * several rows tells only the first id, and the rest need not follow it: on a Galera cluster ids step
 * by the cluster's size, and TypeORM's count on from the first). A reset's UPDATE closes the open episode.
 */
export async function keepEpisodes(
  manager: EntityManager,
  transitions: SensorTransition[],
  wanted: (transition: SensorTransition) => boolean = () => true,
): Promise<Map<SensorTransition, EpisodeOf>> {
  const touched = new Map<SensorTransition, EpisodeOf>();
  const episodes = manager.getRepository(SprungEpisodeEntity);
  let opened: Array<{ transition: SensorTransition; episode: Partial<SprungEpisodeEntity> }> = [];
  const insertOpened = async () => {
    if (opened.length === 0) return;
    // Not read back by the repository (it would SELECT every row again for clock_steps' default).
    const inserted = await manager
      .createQueryBuilder()
      .insert()
      .into(SprungEpisodeEntity)
      .values(opened.map(({ episode }) => episode))
      .updateEntity(false)
      .execute();
    if (!opened.some(({ transition }) => wanted(transition))) {
      opened = [];
      return;
    }
    const ids =
      opened.length === 1
        ? [Number(manager.connection.driver.createGeneratedMap!(episodes.metadata, inserted.raw, 0, 1)!['id'])]
        : await openedIds(
            manager,
            opened.map(({ episode }) => episode),
          );
    opened.forEach(({ transition }, index) => {
      if (wanted(transition)) touched.set(transition, { id: ids[index]!, sprungAt: transition.at });
    });
    opened = [];
  };
  for (const transition of transitions) {
    const { uid, devId } = transition.sensor;
    if (transition.kind === 'sprung') {
      opened.push({
        transition,
        episode: { uid, devId, sprungAt: transition.at, sprungNid: transition.nid!, resetAt: null, resetNid: null },
      });
    } else if (transition.kind === 'reset') {
      await insertOpened();
      const open = await closeEpisode(manager, transition, wanted(transition));
      if (open) touched.set(transition, open);
    }
  }
  await insertOpened();
  return touched;
}

/**
 * Closes the sensor's open episode at a `Set`; where `read`, answers it (the reset's notification names
 * it and its text counts from its `sprung_at`), read before the UPDATE in the same round trip on MySQL.
 * Plain SQL: the repository's findOne and the query builder's UPDATE cost the record's transaction more
 * of the service's CPU than their statements (docs/benchmark.md#alerts).
 */
async function closeEpisode(manager: EntityManager, transition: SensorTransition, read: boolean): Promise<EpisodeOf | null> {
  const { uid, devId } = transition.sensor;
  const close: Statement = {
    sql: 'UPDATE sprung_episodes SET reset_at = ?, reset_nid = ? WHERE uid = ? AND dev_id = ? AND reset_at IS NULL',
    parameters: [toColumnValue(manager, SprungEpisodeEntity, 'resetAt', transition.at), transition.nid, uid, devId],
  };
  if (!read) {
    await queryTogether(manager, [close]);
    return null;
  }
  const open = {
    sql: 'SELECT id, sprung_at FROM sprung_episodes WHERE uid = ? AND dev_id = ? AND reset_at IS NULL ORDER BY id DESC LIMIT 1',
    parameters: [uid, devId],
  };
  const [rows] = (await queryTogether(manager, [open, close])) as [Array<{ id: number | string; sprung_at: unknown }>];
  const episode = rows[0];
  return episode
    ? { id: Number(episode.id), sprungAt: fromColumnValue(manager, SprungEpisodeEntity, 'sprungAt', episode.sprung_at) }
    : null;
}

/**
 * The ids of episodes just opened (none closed yet), in their order, found by their sprung reports
 * through the open episodes' (uid, dev_id, reset_at) index.
 */
async function openedIds(manager: EntityManager, opened: Array<Partial<SprungEpisodeEntity>>): Promise<number[]> {
  const list = (values: unknown[]) => values.map(() => '?').join(', ');
  const uids = [...new Set(opened.map((episode) => episode.uid))];
  const devIds = [...new Set(opened.map((episode) => episode.devId))];
  const nids = opened.map((episode) => episode.sprungNid);
  const rows: Array<{ id: number | string; sprung_nid: number | string }> = await manager.query(
    `SELECT id, sprung_nid FROM sprung_episodes
      WHERE uid IN (${list(uids)}) AND dev_id IN (${list(devIds)}) AND reset_at IS NULL AND sprung_nid IN (${list(nids)})`,
    [...uids, ...devIds, ...nids],
  );
  const idOf = new Map(rows.map((row) => [Number(row.sprung_nid), Number(row.id)]));
  return nids.map((nid) => idOf.get(nid!)!);
}

/** Notes when the first notification of each episode was delivered (the report's `first_notified_at`); a later one changes nothing. */
export async function markFirstDelivery(dataSource: DataSource, episodeIds: number[], at: Date): Promise<void> {
  if (episodeIds.length === 0) return;
  await runStatements(dataSource, (manager) => {
    const { sql, parameters } = firstDeliveryStatement(manager, episodeIds, at);
    return rowsChanged(manager, sql, parameters);
  });
}

/** markFirstDelivery's statement, for a caller that sends it with others (the webhooks' delivered mark). */
export function firstDeliveryStatement(manager: EntityManager, episodeIds: number[], at: Date): Statement {
  const ids = [...new Set(episodeIds)];
  return {
    sql: `UPDATE sprung_episodes SET first_delivered_at = ? WHERE id IN (${ids.map(() => '?').join(', ')}) AND first_delivered_at IS NULL`,
    parameters: [toColumnValue(manager, SprungEpisodeEntity, 'firstDeliveredAt', at), ...ids],
  };
}
