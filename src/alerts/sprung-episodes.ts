import type { DataSource, EntityManager } from 'typeorm';
import { fromColumnValue, rowsChanged, toColumnValue } from '../database/plain-sql.js';
import { runStatements } from '../database/run-in-transaction.js';
import { queryTogether, type Statement } from '../database/send-together.js';
import type { SensorTransition } from '../sensor/projection/sensor-transition.js';
import { sensorKey } from '../sensor/sensor-key.js';
import { SprungEpisodeEntity } from './sprung-episode.entity.js';

/** The episode a transition opened or closed. */
export interface EpisodeOf {
  id: number;
  sprungAt: Date;
}

/** A sprung of the transaction, with the reset after it that closes it in the same transaction (or none): one new row. */
interface NewEpisode {
  sprung: SensorTransition;
  reset: SensorTransition | null;
}

/** The episodes a transaction's transitions open and close, worked out before anything is sent. */
interface EpisodePlan {
  /** Resets that come before any sprung of their sensor: each closes the episode the table holds open. */
  leadingResets: SensorTransition[];
  /** The new rows, in the order of their sprung. */
  opened: NewEpisode[];
  /** The new row each later reset closes (the latest its sensor opened before it). */
  closedBy: Map<SensorTransition, NewEpisode>;
}

/**
 * Opens an episode for each `sprung` and closes the sensor's open one for each `reset`, in the
 * record's transaction; answers the episode each of them opened or closed, by its transition, where
 * `wanted` says that answer is needed (a sensor some alert may notify of). However many transitions,
 * one round trip on MySQL (planEpisodes says what it holds): the read of each open episode a leading
 * reset closes, where wanted, then their UPDATEs, then one INSERT of every new episode (after the
 * UPDATEs, whose `reset_at IS NULL` must not close them), then, where several new episodes are wanted,
 * the read of their ids by their sprung reports (an INSERT of several rows tells only the first id, and
 * the rest need not follow it: on a Galera cluster ids step by the cluster's size); one new episode's
 * id is the INSERT's own.
 */
export async function keepEpisodes(
  manager: EntityManager,
  transitions: SensorTransition[],
  wanted: (transition: SensorTransition) => boolean = () => true,
): Promise<Map<SensorTransition, EpisodeOf>> {
  const { leadingResets, opened, closedBy } = planEpisodes(transitions);
  const read = leadingResets.filter(wanted);
  const named = opened.filter(({ sprung, reset }) => wanted(sprung) || (reset !== null && wanted(reset)));
  const statements: Statement[] = [
    ...read.map((reset) => openEpisodeRead(manager, reset)),
    ...leadingResets.map((reset) => closeStatement(manager, reset)),
  ];
  if (opened.length > 0) statements.push(insertStatement(manager, opened));
  if (named.length > 0 && opened.length > 1) statements.push(idsRead(named));
  const touched = new Map<SensorTransition, EpisodeOf>();
  if (statements.length === 0) return touched;
  const results = await queryTogether(manager, statements);
  read.forEach((reset, index) => {
    const [open] = results[index] as Array<{ id: number | string; sprung_at: unknown }>;
    if (open)
      touched.set(reset, { id: Number(open.id), sprungAt: fromColumnValue(manager, SprungEpisodeEntity, 'sprungAt', open.sprung_at) });
  });
  if (named.length === 0) return touched;
  const idOf = new Map<NewEpisode, number>();
  if (opened.length === 1) {
    const metadata = manager.connection.getMetadata(SprungEpisodeEntity);
    const generated = manager.connection.driver.createGeneratedMap!(metadata, results[read.length + leadingResets.length], 0, 1);
    idOf.set(opened[0]!, Number(generated!['id']));
  } else {
    const rows = results.at(-1) as Array<{ id: number | string; sprung_nid: number | string }>;
    const byNid = new Map(rows.map((row) => [Number(row.sprung_nid), Number(row.id)]));
    for (const episode of named) idOf.set(episode, byNid.get(episode.sprung.nid!)!);
  }
  for (const episode of named) {
    const { sprung } = episode;
    if (wanted(sprung)) touched.set(sprung, { id: idOf.get(episode)!, sprungAt: sprung.at });
  }
  for (const [reset, episode] of closedBy) if (wanted(reset)) touched.set(reset, { id: idOf.get(episode)!, sprungAt: episode.sprung.at });
  return touched;
}

/**
 * What a transaction's transitions do to the episodes, sensor by sensor: each sensor's come in record
 * order, its sprung and reset alternating (sensor-step.ts raises a sprung only when the sensor was not
 * sprung, a reset only when it was). A reset before any sprung of its sensor closes the episode the
 * table holds open, if any (a trap sprung before the episodes were kept has none); a sprung opens a new
 * row, which the next reset of its sensor closes, or which stays open. A sensor whose first transition
 * is a sprung was not sprung, so the table holds no open episode of it for a later reset to close.
 * Should a sensor show two sprung in a row, its next reset closes both and names the later, as one
 * UPDATE of every open episode did.
 */
export function planEpisodes(transitions: SensorTransition[]): EpisodePlan {
  const plan: EpisodePlan = { leadingResets: [], opened: [], closedBy: new Map() };
  /** Per sensor seen, the new rows it holds open so far. */
  const openOf = new Map<string, NewEpisode[]>();
  for (const transition of transitions) {
    if (transition.kind !== 'sprung' && transition.kind !== 'reset') continue;
    const key = sensorKey(transition.sensor);
    const open = openOf.get(key);
    if (transition.kind === 'sprung') {
      const episode: NewEpisode = { sprung: transition, reset: null };
      plan.opened.push(episode);
      openOf.set(key, [...(open ?? []), episode]);
      continue;
    }
    if (open === undefined) plan.leadingResets.push(transition);
    for (const episode of open ?? []) episode.reset = transition;
    const latest = open?.at(-1);
    if (latest) plan.closedBy.set(transition, latest);
    openOf.set(key, []);
  }
  return plan;
}

/**
 * Closes the sensor's open episode at a leading `Set`. Plain SQL, as every statement here: the
 * repository's reads and the query builder's writes cost the record's transaction more of the
 * service's CPU than their statements (docs/benchmark.md#alerts).
 */
function closeStatement(manager: EntityManager, reset: SensorTransition): Statement {
  const { uid, devId } = reset.sensor;
  return {
    sql: 'UPDATE sprung_episodes SET reset_at = ?, reset_nid = ? WHERE uid = ? AND dev_id = ? AND reset_at IS NULL',
    parameters: [toColumnValue(manager, SprungEpisodeEntity, 'resetAt', reset.at), reset.nid, uid, devId],
  };
}

/**
 * The open episode a leading `Set` closes, read before its UPDATE: the reset's notification names it and
 * its text counts from its `sprung_at`. On MySQL a locking read, as the UPDATE's own: a plain SELECT reads
 * the transaction's snapshot, taken before it waited for the sensor's lock, and so would miss the episode
 * a concurrent transaction that held that lock opened and committed meanwhile, which the UPDATE closes.
 */
function openEpisodeRead(manager: EntityManager, reset: SensorTransition): Statement {
  const { uid, devId } = reset.sensor;
  const lock = manager.connection.options.type === 'mysql' ? ' FOR UPDATE' : '';
  return {
    sql: `SELECT id, sprung_at FROM sprung_episodes WHERE uid = ? AND dev_id = ? AND reset_at IS NULL ORDER BY id DESC LIMIT 1${lock}`,
    parameters: [uid, devId],
  };
}

/** The new episodes as one INSERT, closed already where their reset came in the same transaction. */
function insertStatement(manager: EntityManager, opened: NewEpisode[]): Statement {
  const at = (property: 'sprungAt' | 'resetAt', transition: SensorTransition | null) =>
    transition === null ? null : toColumnValue(manager, SprungEpisodeEntity, property, transition.at);
  return {
    sql: `INSERT INTO sprung_episodes (uid, dev_id, sprung_at, sprung_nid, reset_at, reset_nid) VALUES ${opened
      .map(() => '(?, ?, ?, ?, ?, ?)')
      .join(', ')}`,
    parameters: opened.flatMap(({ sprung, reset }) => [
      sprung.sensor.uid,
      sprung.sensor.devId,
      at('sprungAt', sprung),
      sprung.nid,
      at('resetAt', reset),
      reset?.nid ?? null,
    ]),
  };
}

/**
 * The ids of the new episodes, by their sprung reports (the sprung_nid index): each report was stored
 * in this transaction and springs one episode at most, so no other row names it.
 */
function idsRead(named: NewEpisode[]): Statement {
  return {
    sql: `SELECT id, sprung_nid FROM sprung_episodes WHERE sprung_nid IN (${named.map(() => '?').join(', ')})`,
    parameters: named.map(({ sprung }) => sprung.nid),
  };
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
