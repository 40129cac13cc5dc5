import type { EntityManager } from 'typeorm';
import type { SensorEntity } from '../sensor.entity.js';

/**
 * What can happen to a sensor (docs/interface.md#sensor-transitions): each computed in one place, the
 * record's step (sensor-step.ts) or the silence check (silent-sensors.ts), and handed on to whatever
 * follows the sensor's changes (the alerts).
 */
type SensorTransitionKind = 'sprung' | 'reset' | 'silent' | 'back' | 'battery' | 'tilted' | 'bait';

export interface SensorTransition {
  kind: SensorTransitionKind;
  /** The sensor's row after the change. */
  sensor: SensorEntity;
  /** The record that caused it; null for `silent`, which the clock causes. */
  nid: number | null;
  /** The record's order time (its device time, or its receipt for a device time too far ahead: record-order.ts), or for `silent` when the silence was noticed. */
  at: Date;
  /** For `reset`: the order time of the report that sprung the trap. */
  sprungAt?: Date | null;
  /** For `battery`: the new last known voltage; for `bait`: the reported bait level. */
  value?: number;
  /** For `battery`: the last known voltage before this record, null when there was none. */
  previous?: number | null;
}

/**
 * Handed the transitions of each batch of records in its transaction; told once it committed, when
 * `record` answered that it wrote something to announce (the alerts: a notification).
 */
export interface SensorTransitionSink {
  record(manager: EntityManager, transitions: SensorTransition[]): Promise<boolean>;
  committed(transitions: SensorTransition[]): void;
}
