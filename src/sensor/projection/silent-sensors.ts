import type { DataSource } from 'typeorm';
import { runInTransaction } from '../../database/run-in-transaction.js';
import { SensorEntity } from '../sensor.entity.js';
import { overdueCutoff, stateCondition } from '../sensor-state.js';
import type { SensorTransition, SensorTransitionSink } from './sensor-transition.js';

/** Sensors found silent in one pass at most; the rest wait for the next pass. */
const PASS_LIMIT = 500;

/**
 * The `silent` transition (docs/interface.md#sensor-transitions): finds the sensors that are overdue
 * at `now` and not yet marked, marks each (`silent_since`) and hands its transition to `sink` in the
 * same transaction, so that it is raised once: the mark is conditional, and the sensor's next record
 * clears it (`back`). Run by one instance at a time (the alerts' clock holds a lease for it).
 */
export async function raiseSilent(dataSource: DataSource, now: number, graceSeconds: number, sink: SensorTransitionSink): Promise<number> {
  const cutoff = overdueCutoff(now, graceSeconds);
  const overdue = stateCondition('overdue', 'sensor');
  const candidates = await dataSource
    .getRepository(SensorEntity)
    .createQueryBuilder('sensor')
    .select(['sensor.uid', 'sensor.devId'])
    .where(`${overdue} AND sensor.silent_since IS NULL`, { cutoff })
    .limit(PASS_LIMIT)
    .getMany();
  const raised: SensorTransition[] = [];
  let announce = false;
  for (const { uid, devId } of candidates) {
    const transition = await runInTransaction(dataSource, async (manager) => {
      const at = new Date(now);
      const marked = await manager
        .createQueryBuilder()
        .update(SensorEntity)
        .set({ silentSince: at })
        .where(`uid = :uid AND dev_id = :devId AND silent_since IS NULL AND ${overdue}`, { uid, devId, cutoff })
        .execute();
      if (!marked.affected) return null;
      const sensor = await manager.getRepository(SensorEntity).findOneByOrFail({ uid, devId });
      const silent: SensorTransition = { kind: 'silent', sensor, nid: null, at };
      if (await sink.record(manager, [silent])) announce = true;
      return silent;
    });
    if (transition) raised.push(transition);
  }
  if (announce) sink.committed(raised);
  return raised.length;
}
