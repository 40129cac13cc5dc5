import { type EntityManager, In, IsNull, Not } from 'typeorm';
import { SensorEntity } from '../sensor/sensor.entity.js';
import { SensorRecordEntity } from '../sensor-record/sensor-record.entity.js';
import { type AlertEvent, SPRUNG_DEADLINE_SECONDS } from './alert-events.js';
import { AlertNotificationEntity } from './alert-notification.entity.js';
import type { NewNotification } from './alert-outbox.js';
import { AlertEntity } from './alert.entity.js';
import { SprungEpisodeEntity } from './sprung-episode.entity.js';

/** Open episodes looked at in one pass (each open one is a trap waiting for a visit). */
const PASS_LIMIT = 1000;

/**
 * The 24-hour clock of open sprung episodes (docs/alerts.md#the-24-hour-clock): for each alert that
 * hears of `sprung` (or names the step itself) the steps that have come due at `now` and were not
 * raised yet: `sprung_reminder` after the alert's remind_after, `sprung_escalation` to its escalation
 * target after escalate_after, `sprung_deadline` at 24 h. Each step is raised once: its notification
 * carries a unique dedupe key.
 */
export async function dueClockSteps(manager: EntityManager, now: number): Promise<NewNotification[]> {
  const episodes = await manager
    .getRepository(SprungEpisodeEntity)
    .find({ where: { resetAt: IsNull() }, order: { id: 'ASC' }, take: PASS_LIMIT });
  if (episodes.length === 0) return [];
  const alerts = await manager
    .getRepository(AlertEntity)
    .find({ where: { uid: In([...new Set(episodes.map((episode) => episode.uid))]) } });
  if (alerts.length === 0) return [];
  const raised = new Set(
    (
      await manager.getRepository(AlertNotificationEntity).find({
        select: { dedupeKey: true },
        where: { episodeId: In(episodes.map((episode) => episode.id)), dedupeKey: Not(IsNull()) },
      })
    ).map((notification) => notification.dedupeKey),
  );
  const reportedAt = await reportTimes(manager, episodes);
  const due: NewNotification[] = [];
  for (const episode of episodes) {
    for (const alert of alerts) {
      if (alert.uid !== episode.uid || (alert.devId !== null && alert.devId !== episode.devId)) continue;
      for (const step of steps(alert)) {
        const dedupeKey = `${step.event}:${episode.id}:${alert.id}`;
        const dueAt = episode.sprungAt.getTime() + step.afterSeconds * 1000;
        if (raised.has(dedupeKey) || dueAt > now) continue;
        if (passedOver(step.event, dueAt, alert, reportedAt.get(episode.sprungNid) ?? episode.sprungAt.getTime())) continue;
        due.push({
          alert,
          event: step.event,
          recipient: step.event === 'sprung_escalation' ? 'escalation' : 'primary',
          sensor: null,
          devId: episode.devId,
          at: new Date(now),
          facts: { sprungAt: episode.sprungAt },
          recordNid: episode.sprungNid,
          episodeId: episode.id,
          dedupeKey,
        });
      }
    }
  }
  if (due.length === 0) return due;
  const sensors = await manager.getRepository(SensorEntity).find({ where: { uid: In([...new Set(due.map((step) => step.alert.uid))]) } });
  for (const step of due) step.sensor = sensors.find((sensor) => sensor.uid === step.alert.uid && sensor.devId === step.devId) ?? null;
  return due;
}

/**
 * The steps whose episode is still open as the clock writes them, each counted on its episode's row
 * (`clock_steps`) in the transaction that writes it. A `Set` may close an episode after the pass read it
 * open: its `reset` must stay the episode's last notification. On MySQL each episode is read again
 * under a lock on its row (a locking read sees the last commit, and a `Set` that comes after waits for
 * the pass to commit, its `reset` then written after the steps). On a Galera cluster that lock holds on
 * its own node only, but the count is a write, and certified: a `Set` committed on another node wrote
 * the same row, so one of the two transactions fails certification and runs again
 * (run-in-transaction.ts), the pass then finding the episode closed, or the `Set` the steps written.
 * SQLite runs the transactions of a process one after another.
 */
export async function openEpisodeSteps(manager: EntityManager, due: NewNotification[]): Promise<NewNotification[]> {
  if (due.length === 0) return due;
  const query = manager
    .getRepository(SprungEpisodeEntity)
    .createQueryBuilder('episode')
    .select('episode.id', 'id')
    .where('episode.id IN (:...ids) AND episode.resetAt IS NULL', { ids: [...new Set(due.map((step) => step.episodeId!))] })
    .orderBy('episode.id');
  if (manager.connection.options.type === 'mysql') query.setLock('pessimistic_write');
  const open = new Set((await query.getRawMany<{ id: number | string }>()).map((row) => Number(row.id)));
  const kept = due.filter((step) => open.has(step.episodeId!));
  await countSteps(manager, kept);
  return kept;
}

/** Adds each episode's steps to its `clock_steps`: one UPDATE for the episodes with as many steps (usually one). */
async function countSteps(manager: EntityManager, steps: NewNotification[]): Promise<void> {
  const perEpisode = new Map<number, number>();
  for (const step of steps) perEpisode.set(step.episodeId!, (perEpisode.get(step.episodeId!) ?? 0) + 1);
  const episodesBySteps = new Map<number, number[]>();
  for (const [id, count] of perEpisode) episodesBySteps.set(count, [...(episodesBySteps.get(count) ?? []), id]);
  for (const [count, ids] of episodesBySteps) {
    await manager
      .createQueryBuilder()
      .update(SprungEpisodeEntity)
      .set({ clockSteps: () => `clock_steps + ${count}` })
      .where({ id: In(ids.sort((a, b) => a - b)) })
      .execute();
  }
}

/**
 * A step that came due before the alert could hear of the episode: before the alert existed (set up
 * for a trap already sprung), or before the report that sprung the trap arrived (reported late). A
 * reminder or escalation then would be a stale burst; the deadline is raised all the same, by the
 * next pass when the 24 hours are up, since a trap still sprung at its deadline is what the owner must hear
 * (docs/alerts.md#the-24-hour-clock).
 */
function passedOver(event: AlertEvent, dueAt: number, alert: AlertEntity, reportedAt: number): boolean {
  return event !== 'sprung_deadline' && dueAt < Math.max(alert.created.getTime(), reportedAt);
}

/**
 * Whether a trap sprung at `sprungAt` and reported at `reportedAt` was reported after a step of the
 * alert's clock came due: its `sprung` notification then says how late, and when the 24 hours are up.
 */
export function reportedLate(alert: AlertEntity, sprungAt: Date, reportedAt: number): boolean {
  return steps(alert).some((step) => sprungAt.getTime() + step.afterSeconds * 1000 < reportedAt);
}

/**
 * Whether a trap set at `setAt` and reported at `reportedAt` was reported after a step of the alert's
 * clock came due while it was set already: the owner may have been told it was still sprung, so its
 * `reset` says how late it was reported.
 */
export function setReportedLate(alert: AlertEntity, sprungAt: Date, setAt: Date, reportedAt: number): boolean {
  return steps(alert).some((step) => {
    const dueAt = sprungAt.getTime() + step.afterSeconds * 1000;
    return setAt.getTime() < dueAt && dueAt < reportedAt;
  });
}

/** When each episode's sprung report arrived (its `created`), by its nid; one purged by retention is left out. */
async function reportTimes(manager: EntityManager, episodes: SprungEpisodeEntity[]): Promise<Map<number, number>> {
  const records = await manager.getRepository(SensorRecordEntity).find({
    select: { nid: true, created: true },
    where: { nid: In(episodes.map((episode) => episode.sprungNid)) },
  });
  return new Map(records.map((record) => [record.nid, record.created.getTime()]));
}

function steps(alert: AlertEntity): Array<{ event: AlertEvent; afterSeconds: number }> {
  const hears = (event: AlertEvent) => alert.events.includes('sprung') || alert.events.includes(event);
  const found: Array<{ event: AlertEvent; afterSeconds: number }> = [];
  if (hears('sprung_reminder')) found.push({ event: 'sprung_reminder', afterSeconds: alert.remindAfter });
  if (hears('sprung_escalation') && alert.escalateAfter !== null && alert.escalateTarget !== null) {
    found.push({ event: 'sprung_escalation', afterSeconds: alert.escalateAfter });
  }
  if (hears('sprung_deadline')) found.push({ event: 'sprung_deadline', afterSeconds: SPRUNG_DEADLINE_SECONDS });
  return found;
}
