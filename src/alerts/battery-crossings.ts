import type { EntityManager } from 'typeorm';
import { sendTogether, type Statement } from '../database/send-together.js';
import type { SensorTransition } from '../sensor/projection/sensor-transition.js';
import { BATTERY_REARM_VOLTS } from './alert-events.js';
import type { AlertEntity } from './alert.entity.js';

/** A battery transition of a sensor, for an alert that hears battery_low of it. */
export interface BatteryCheck {
  alert: Pick<AlertEntity, 'id' | 'batteryBelow'>;
  transition: Pick<SensorTransition, 'sensor' | 'value' | 'previous'>;
}

/** A row of `alert_battery_lows`: the alert has fired for the sensor. */
interface CrossingKey {
  alertId: number;
  uid: number;
  devId: string;
}

/**
 * A transaction's writes to the crossing rows. `probes`: one INSERT IGNORE each, whose changed row
 * says whether the row was missing (the key's first step is a low voltage); then `deletes` and
 * `inserts`, each key's state after its last step, in a statement for all.
 */
export interface CrossingWrites {
  probes: CrossingKey[];
  deletes: CrossingKey[];
  inserts: CrossingKey[];
}

interface KeySteps<C> extends CrossingKey {
  /** In record order: true for a voltage below the threshold, false for one that arms the alert again. */
  steps: Array<{ check: C; low: boolean }>;
}

/**
 * What a battery transition does to its alert's crossing row (docs/alerts.md#events): a voltage below
 * the threshold fires once, where the row is missing, and leaves it; one above the threshold + 0.1 V
 * deletes it. The row can be there only if the voltage before was at or below that level: a report
 * above it deleted the row, and a sensor's first voltage (none before, read under the sensor row's
 * lock) finds none, since the row is only written with a voltage the sensor's row keeps from then on.
 */
function stepOf({ alert, transition }: BatteryCheck): boolean | null {
  const threshold = Number(alert.batteryBelow);
  const rearmAbove = threshold + BATTERY_REARM_VOLTS;
  if (transition.value! > rearmAbove) return transition.previous != null && transition.previous <= rearmAbove ? false : null;
  return transition.value! < threshold ? true : null;
}

/**
 * The crossing rows' writes for a transaction's battery checks (in record order for each sensor), and
 * the checks that fire, given whether each probe inserted its row. Only a key's first low voltage
 * before any re-arming depends on the table; every later step follows from the ones before it in the
 * transaction, whose sensor rows it holds locked: a low after a re-arm fires, a low after a low does
 * not. So each key needs at most its probe and one write of its state after the last step.
 */
export function planCrossings<C extends BatteryCheck>(checks: readonly C[]): { writes: CrossingWrites; fired(inserted: boolean[]): C[] } {
  const keys = new Map<string, KeySteps<C>>();
  for (const check of checks) {
    const low = stepOf(check);
    if (low === null) continue;
    const { uid, devId } = check.transition.sensor;
    const id = `${check.alert.id}\u0000${uid}\u0000${devId}`;
    const key = keys.get(id) ?? { alertId: check.alert.id, uid, devId, steps: [] };
    keys.set(id, key);
    key.steps.push({ check, low });
  }
  const writes: CrossingWrites = { probes: [], deletes: [], inserts: [] };
  const probed = new Map<KeySteps<C>, number>();
  for (const key of keys.values()) {
    const first = key.steps[0]!.low;
    const last = key.steps[key.steps.length - 1]!.low;
    const row = { alertId: key.alertId, uid: key.uid, devId: key.devId };
    if (first) probed.set(key, writes.probes.push(row) - 1);
    // A probe leaves the row there, as a last low voltage does: only a key re-armed first needs it written.
    if (!last) writes.deletes.push(row);
    else if (!first) writes.inserts.push(row);
  }
  return {
    writes,
    fired: (inserted) => {
      const fired: C[] = [];
      for (const key of keys.values()) {
        // Whether the row is there before each step: unknown (the probe tells) until the first step.
        let there: boolean | undefined;
        for (const { check, low } of key.steps) {
          if (low && (there === undefined ? inserted[probed.get(key)!] : !there)) fired.push(check);
          there = low;
        }
      }
      return fired;
    },
  };
}

/** The writes as statements, probes first: each probe's changed row is its own answer. */
export function crossingStatements(writes: CrossingWrites, mysql: boolean): Statement[] {
  const insert = `${mysql ? 'INSERT IGNORE' : 'INSERT OR IGNORE'} INTO alert_battery_lows (alert_id, uid, dev_id) VALUES `;
  const values = (keys: CrossingKey[]) => ({
    sql: insert + keys.map(() => '(?, ?, ?)').join(', '),
    parameters: keys.flatMap((key) => [key.alertId, key.uid, key.devId]),
  });
  const statements: Statement[] = writes.probes.map((key) => values([key]));
  if (writes.deletes.length > 0) statements.push(deleteStatement(writes.deletes));
  if (writes.inserts.length > 0) statements.push(values(writes.inserts));
  return statements;
}

/** One DELETE of the keys, a term per alert and user (`dev_id IN (…)`), each a range of the primary key. */
function deleteStatement(keys: CrossingKey[]): Statement {
  const groups = new Map<string, { alertId: number; uid: number; devIds: string[] }>();
  for (const { alertId, uid, devId } of keys) {
    const id = `${alertId}\u0000${uid}`;
    const group = groups.get(id) ?? { alertId, uid, devIds: [] };
    groups.set(id, group);
    group.devIds.push(devId);
  }
  const terms = [...groups.values()];
  return {
    sql: `DELETE FROM alert_battery_lows WHERE ${terms
      .map(({ devIds }) => `(alert_id = ? AND uid = ? AND dev_id IN (${devIds.map(() => '?').join(', ')}))`)
      .join(' OR ')}`,
    parameters: terms.flatMap(({ alertId, uid, devIds }) => [alertId, uid, ...devIds]),
  };
}

/**
 * The battery checks of a transaction that fire battery_low, once per crossing: their crossing rows
 * written in one round trip on MySQL (docs/benchmark.md#alerts), where a statement each was one each.
 */
export async function firedBatteryLows<C extends BatteryCheck>(manager: EntityManager, checks: readonly C[]): Promise<C[]> {
  const plan = planCrossings(checks);
  const statements = crossingStatements(plan.writes, manager.connection.options.type === 'mysql');
  if (statements.length === 0) return [];
  const changed = await sendTogether(manager, statements);
  return plan.fired(changed.slice(0, plan.writes.probes.length).map((rows) => rows === 1));
}
