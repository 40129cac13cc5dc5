import { type EntityManager, In, IsNull } from 'typeorm';
import { AlertEntity } from './alert.entity.js';
import { SprungEpisodeEntity } from './sprung-episode.entity.js';

/** What the alerts know of a sensor that its json carries (docs/interface.md#a-sensor). */
export interface SensorAlertFacts {
  /** Device time of the open sprung episode: the 24-hour clock runs from it. */
  sprungAt: Date | null;
  /** The battery_low threshold that applies to the sensor, in volts, or null when no alert sets one. */
  batteryLowBelow: number | null;
}

/** Whether an alert hears a battery falling below its threshold (docs/alerts.md). */
export function hearsBatteryLow(alert: AlertEntity): boolean {
  return alert.batteryBelow !== null && alert.events.includes('battery_low');
}

/** What a record's transaction already knows: the owner's alerts, and the sprung-at its episodes left each dev_id. */
export interface KnownAlertFacts {
  alerts: AlertEntity[];
  sprungAt: ReadonlyMap<string, Date | null>;
}

/**
 * The owner's alert facts for each of their sensors, by dev_id: the open episode's sprung-at, and the
 * highest battery_low threshold among the alerts naming the sensor or all sensors (the first to warn).
 * For a list, all of the owner's open episodes are read at once (each is a trap waiting for a visit);
 * for a few sensors, `devIds` names them. `known`: what the caller read or wrote in this transaction
 * already, not read again.
 */
export async function sensorAlertFacts(
  manager: EntityManager,
  uid: number,
  devIds?: string[],
  known?: KnownAlertFacts,
): Promise<(devId: string) => SensorAlertFacts> {
  const unknown = devIds?.filter((devId) => !known?.sprungAt.has(devId));
  const open = { uid, resetAt: IsNull(), ...(unknown && { devId: In(unknown) }) };
  // One after the other: in a record's transaction both go over its one connection.
  const episodes =
    unknown?.length === 0 ? [] : await manager.getRepository(SprungEpisodeEntity).find({ where: open, order: { id: 'ASC' } });
  const alerts = known?.alerts.filter((alert) => alert.uid === uid) ?? (await manager.getRepository(AlertEntity).find({ where: { uid } }));
  const sprungAt = new Map<string, Date | null>(episodes.map((episode) => [episode.devId, episode.sprungAt]));
  for (const [devId, at] of known?.sprungAt ?? []) sprungAt.set(devId, at);
  const batteryAlerts = alerts.filter(hearsBatteryLow);
  return (devId) => {
    const thresholds = batteryAlerts
      .filter((alert) => alert.devId === null || alert.devId === devId)
      .map((alert) => Number(alert.batteryBelow));
    return { sprungAt: sprungAt.get(devId) ?? null, batteryLowBelow: thresholds.length === 0 ? null : Math.max(...thresholds) };
  };
}
