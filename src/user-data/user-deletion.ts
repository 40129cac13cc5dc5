import { setTimeout as delay } from 'node:timers/promises';
import type { DataSource, EntityManager } from 'typeorm';
import { AlertEntity } from '../alerts/alert.entity.js';
import { SprungEpisodeEntity } from '../alerts/sprung-episode.entity.js';
import { AccessTokenEntity } from '../auth/tokens/access-token.entity.js';
import { RefreshTokenEntity } from '../auth/tokens/refresh-token.entity.js';
import { UserEntity } from '../auth/users/user.entity.js';
import { runInTransaction } from '../database/run-in-transaction.js';
import { IntegrationEntity } from '../integrations/integration.entity.js';
import { SensorEntity } from '../sensor/sensor.entity.js';
import { SensorRecordEntity } from '../sensor-record/sensor-record.entity.js';

/** Rows per transaction, and the rest after each, as the retention's purge has them (retention/record-purge.ts). */
const BATCH_SIZE = 500;
const MIN_PAUSE_MS = 50;

/** What deleting a user removed. */
export interface UserDeleted {
  uid: number;
  records: number;
  sensors: number;
  integrations: number;
  alerts: number;
  tokens: number;
}

/** The user still has records and was not asked to delete them. */
export class UserHasRecordsError extends Error {
  constructor(
    readonly username: string,
    readonly records: number,
  ) {
    super(
      `The user "${username}" has ${records} ${records === 1 ? 'record' : 'records'}: add --with-records to delete ${records === 1 ? 'it' : 'them'} (and their sensors) too.`,
    );
  }
}

/**
 * Deletes a user and everything that is theirs (docs/administration.md#deleting-a-user): their records
 * and sensors in small transactions when asked, then in one transaction what is left (the last records
 * stored meanwhile, the sensors, the tokens, the integrations) and the user. The user is blocked
 * first, so that neither their tokens nor their integrations store records while it goes on.
 */
export async function deleteUser(dataSource: DataSource, user: UserEntity, withRecords: boolean): Promise<UserDeleted> {
  const { uid } = user;
  const records = await dataSource.getRepository(SensorRecordEntity).countBy({ uid });
  if (records > 0 && !withRecords) throw new UserHasRecordsError(user.name, records);
  await dataSource.getRepository(UserEntity).update({ uid }, { status: false });
  const deleted = { records: 0, sensors: 0 };
  if (withRecords) {
    deleted.records = await inBatches(dataSource, (manager) => deleteRecords(manager, uid, BATCH_SIZE));
    deleted.sensors = await inBatches(dataSource, (manager) => deleteSensors(manager, uid, BATCH_SIZE));
  }
  const rest = await runInTransaction(dataSource, async (manager) => {
    // Records stored since the batches (a request already past the blocked check) go too; without
    // --with-records there are none unless one arrived since the count, and the foreign key refuses then.
    const late = withRecords ? await deleteRecords(manager, uid) : 0;
    const sensors = await deleteSensors(manager, uid);
    const tokens =
      ((await manager.delete(AccessTokenEntity, { uid })).affected ?? 0) +
      ((await manager.delete(RefreshTokenEntity, { uid })).affected ?? 0);
    const integrations = (await manager.delete(IntegrationEntity, { uid })).affected ?? 0;
    // Their alerts (with their notifications, by the foreign key) and their traps' sprung episodes.
    const alerts = (await manager.delete(AlertEntity, { uid })).affected ?? 0;
    await manager.delete(SprungEpisodeEntity, { uid });
    await manager.delete(UserEntity, { uid });
    return { late, sensors, tokens, integrations, alerts };
  });
  return {
    uid,
    records: deleted.records + rest.late,
    sensors: deleted.sensors + rest.sensors,
    integrations: rest.integrations,
    alerts: rest.alerts,
    tokens: rest.tokens,
  };
}

async function deleteRecords(manager: EntityManager, uid: number, limit?: number): Promise<number> {
  const read = manager.createQueryBuilder(SensorRecordEntity, 'record').select('record.nid', 'nid').where('record.uid = :uid', { uid });
  if (limit !== undefined) read.orderBy('record.nid', 'ASC').limit(limit);
  const nids = (await read.getRawMany<{ nid: number | string }>()).map((row) => Number(row.nid));
  if (nids.length > 0) await manager.createQueryBuilder().delete().from(SensorRecordEntity).where('nid IN (:...nids)', { nids }).execute();
  return nids.length;
}

async function deleteSensors(manager: EntityManager, uid: number, limit?: number): Promise<number> {
  const read = manager.createQueryBuilder(SensorEntity, 'sensor').select('sensor.devId', 'devId').where('sensor.uid = :uid', { uid });
  if (limit !== undefined) read.orderBy('sensor.devId', 'ASC').limit(limit);
  const devIds = (await read.getRawMany<{ devId: string }>()).map((row) => row.devId);
  if (devIds.length > 0) {
    await manager
      .createQueryBuilder()
      .delete()
      .from(SensorEntity)
      .where('uid = :uid AND dev_id IN (:...devIds)', { uid, devIds })
      .execute();
  }
  return devIds.length;
}

/** Runs `batch` in transactions of its own until one deletes less than a full batch, resting in between. */
async function inBatches(dataSource: DataSource, batch: (manager: EntityManager) => Promise<number>): Promise<number> {
  let total = 0;
  for (;;) {
    const started = Date.now();
    const rows = await runInTransaction(dataSource, batch);
    total += rows;
    if (rows < BATCH_SIZE) return total;
    await delay(Math.max(MIN_PAUSE_MS, Date.now() - started));
  }
}
