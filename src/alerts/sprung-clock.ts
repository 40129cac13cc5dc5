import { type EntityManager, In, IsNull, Not } from 'typeorm';
import { SensorEntity } from '../sensor/sensor.entity.js';
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
  const due: NewNotification[] = [];
  for (const episode of episodes) {
    for (const alert of alerts) {
      if (alert.uid !== episode.uid || (alert.devId !== null && alert.devId !== episode.devId)) continue;
      for (const step of steps(alert)) {
        const dedupeKey = `${step.event}:${episode.id}:${alert.id}`;
        const dueAt = episode.sprungAt.getTime() + step.afterSeconds * 1000;
        if (raised.has(dedupeKey) || dueAt > now) continue;
        // An alert set up for a trap already sprung hears no burst of steps that came due before it
        // existed; the deadline it hears all the same (docs/alerts.md#the-24-hour-clock).
        if (step.event !== 'sprung_deadline' && dueAt < alert.created.getTime()) continue;
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
