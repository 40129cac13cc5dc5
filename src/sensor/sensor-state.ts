import type { SensorEntity } from './sensor.entity.js';

/** docs/interface.md#sensor-state */
export const SENSOR_STATES = ['ok', 'overdue', 'no_heartbeat', 'expired'] as const;

export type SensorState = (typeof SENSOR_STATES)[number];

/**
 * The instant before which a heartbeat due makes a sensor overdue: `now` less the grace, rounded up
 * to the whole second (dues are whole seconds), so that the database's filter and this module agree.
 */
export function overdueCutoff(now: number, graceSeconds: number): Date {
  return new Date(Math.ceil((now - graceSeconds * 1000) / 1000) * 1000);
}

/**
 * The same rule in SQL: the condition that the `sensor` row under `alias` is in `state`, with the
 * cutoff bound as `:cutoff` (a due is NULL exactly when the period is not positive).
 */
export function stateCondition(state: SensorState, alias: string): string {
  switch (state) {
    case 'ok':
      return `${alias}.heartbeat_due >= :cutoff`;
    case 'overdue':
      return `${alias}.heartbeat_due < :cutoff`;
    case 'no_heartbeat':
      return `${alias}.heartbeat_period < 0`;
    case 'expired':
      return `${alias}.heartbeat_period = 0`;
  }
}

/** A sensor's state at `now`: from its heartbeat period, and for a positive one from when its next report was due. */
export function sensorState(sensor: Pick<SensorEntity, 'heartbeatPeriod' | 'heartbeatDue'>, cutoff: Date): SensorState {
  if (sensor.heartbeatPeriod < 0) return 'no_heartbeat';
  if (sensor.heartbeatPeriod === 0 || sensor.heartbeatDue === null) return 'expired';
  return sensor.heartbeatDue < cutoff ? 'overdue' : 'ok';
}
