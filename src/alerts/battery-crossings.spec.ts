import type { SensorEntity } from '../sensor/sensor.entity.js';
import { BATTERY_REARM_VOLTS } from './alert-events.js';
import { type BatteryCheck, crossingStatements, planCrossings } from './battery-crossings.js';

const HIGH = Object.freeze({ id: 1, batteryBelow: '3.3' });
const LOW = Object.freeze({ id: 2, batteryBelow: '3.0' });
const sensorOf = (devId: string) => ({ uid: 7, devId }) as SensorEntity;

/** Each sensor's voltages in record order, as battery transitions heard by each alert, one sensor after another. */
function checksOf(voltages: Record<string, number[]>, alerts: ReadonlyArray<BatteryCheck['alert']> = [HIGH]): BatteryCheck[] {
  return Object.entries(voltages).flatMap(([devId, values]) =>
    values.flatMap((value, index) =>
      alerts.map((alert) => ({ alert, transition: { sensor: sensorOf(devId), value, previous: index === 0 ? null : values[index - 1]! } })),
    ),
  );
}

const keyOf = (alertId: number, devId: string) => `${alertId} ${devId}`;

/** The rule as one statement per check, in order: a DELETE on re-arming, an INSERT IGNORE that fires where it inserts. */
function oneByOne(checks: BatteryCheck[], rows: Set<string>): BatteryCheck[] {
  const fired: BatteryCheck[] = [];
  for (const check of checks) {
    const { alert, transition } = check;
    const key = keyOf(alert.id, transition.sensor.devId);
    const threshold = Number(alert.batteryBelow);
    if (transition.value! > threshold + BATTERY_REARM_VOLTS) {
      if (transition.previous != null && transition.previous <= threshold + BATTERY_REARM_VOLTS) rows.delete(key);
    } else if (transition.value! < threshold && !rows.has(key)) {
      rows.add(key);
      fired.push(check);
    }
  }
  return fired;
}

/** The plan's writes applied in their order to `rows`, and the checks it says fire. */
function planned(checks: BatteryCheck[], rows: Set<string>): BatteryCheck[] {
  const { writes, fired } = planCrossings(checks);
  const inserted = writes.probes.map(({ alertId, devId }) => {
    const missing = !rows.has(keyOf(alertId, devId));
    rows.add(keyOf(alertId, devId));
    return missing;
  });
  for (const { alertId, devId } of writes.deletes) rows.delete(keyOf(alertId, devId));
  for (const { alertId, devId } of writes.inserts) rows.add(keyOf(alertId, devId));
  return fired(inserted);
}

/** A repeatable sequence of numbers in [0, 1) (a linear congruential generator). */
function numbers(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe(planCrossings.name, () => {
  it('fires once per crossing within one transaction, from the row before it, and leaves the row of the last step', () => {
    const checks = checksOf({ 'bait-1': [3.5, 3.2, 3.1, 3.35, 3.25, 3.45, 3.2] });

    const { writes, fired } = planCrossings(checks);

    // 3.2 V probes the row; 3.1 V finds it there, 3.45 V arms the alert again and 3.2 V fires again.
    expect(writes).toEqual({ probes: [{ alertId: 1, uid: 7, devId: 'bait-1' }], deletes: [], inserts: [] });
    expect(fired([true]).map((check) => check.transition.value)).toEqual([3.2, 3.2]);
    expect(fired([false]).map((check) => check.transition.value)).toEqual([3.2]);
  });

  it('deletes the row of a sensor whose last step arms the alert again, and writes it for one low after being armed first', () => {
    const checks = checksOf({ 'bait-1': [3.0, 3.5], 'bait-2': [3.2, 3.6, 3.1] });

    const { writes } = planCrossings(checks);

    expect(writes).toEqual({
      probes: [
        { alertId: 1, uid: 7, devId: 'bait-1' },
        { alertId: 1, uid: 7, devId: 'bait-2' },
      ],
      deletes: [{ alertId: 1, uid: 7, devId: 'bait-1' }],
      inserts: [],
    });
    expect(planCrossings(checksOf({ 'bait-3': [3.35, 3.5, 3.2] })).writes).toEqual({
      probes: [],
      deletes: [],
      inserts: [{ alertId: 1, uid: 7, devId: 'bait-3' }],
    });
  });

  it('writes nothing for voltages between the threshold and its re-arm level, nor for a first voltage above it', () => {
    expect(planCrossings(checksOf({ 'bait-1': [3.6, 3.35, 3.4, 3.3] })).writes).toEqual({ probes: [], deletes: [], inserts: [] });
  });

  it('answers what one statement a check would, for any voltages, alerts and rows already there', () => {
    const random = numbers(20261129);
    for (let round = 0; round < 500; round++) {
      const voltages: Record<string, number[]> = {};
      for (const devId of ['a', 'b', 'c'])
        voltages[devId] = Array.from({ length: Math.floor(random() * 8) }, () => Math.round((2.8 + random() * 1.0) * 20) / 20);
      const checks = checksOf(voltages, [HIGH, LOW]);
      const there = [HIGH, LOW].flatMap((alert) =>
        Object.keys(voltages)
          .filter(() => random() < 0.3)
          .map((devId) => keyOf(alert.id, devId)),
      );
      const [before, after] = [new Set(there), new Set(there)];

      // The checks that fire, in the checks' order.
      const indexes = (fired: BatteryCheck[]) => fired.map((check) => checks.indexOf(check)).sort((a, b) => a - b);
      expect(indexes(planned(checks, after))).toEqual(indexes(oneByOne(checks, before)));
      expect([...after].sort()).toEqual([...before].sort());
    }
  });
});

describe(crossingStatements.name, () => {
  it('sends each probe alone, then one DELETE by alert and user, then one INSERT of the rest', () => {
    const key = (alertId: number, devId: string) => ({ alertId, uid: 7, devId });
    const writes = {
      probes: [key(1, 'a'), key(2, 'a')],
      deletes: [key(1, 'b'), key(1, 'c'), key(2, 'b')],
      inserts: [key(1, 'd'), key(2, 'd')],
    };

    expect(crossingStatements(writes, true)).toEqual([
      { sql: 'INSERT IGNORE INTO alert_battery_lows (alert_id, uid, dev_id) VALUES (?, ?, ?)', parameters: [1, 7, 'a'] },
      { sql: 'INSERT IGNORE INTO alert_battery_lows (alert_id, uid, dev_id) VALUES (?, ?, ?)', parameters: [2, 7, 'a'] },
      {
        sql: 'DELETE FROM alert_battery_lows WHERE (alert_id = ? AND uid = ? AND dev_id IN (?, ?)) OR (alert_id = ? AND uid = ? AND dev_id IN (?))',
        parameters: [1, 7, 'b', 'c', 2, 7, 'b'],
      },
      {
        sql: 'INSERT IGNORE INTO alert_battery_lows (alert_id, uid, dev_id) VALUES (?, ?, ?), (?, ?, ?)',
        parameters: [1, 7, 'd', 2, 7, 'd'],
      },
    ]);
    expect(crossingStatements({ probes: [key(1, 'a')], deletes: [], inserts: [] }, false)).toEqual([
      { sql: 'INSERT OR IGNORE INTO alert_battery_lows (alert_id, uid, dev_id) VALUES (?, ?, ?)', parameters: [1, 7, 'a'] },
    ]);
  });
});
