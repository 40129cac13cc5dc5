import { type DataSource, type EntityManager, QueryFailedError } from 'typeorm';
import { CommitUnconfirmedError } from '../common/errors/commit-unconfirmed.error.js';
import { DatabaseTimeoutError } from '../common/errors/database-timeout.error.js';
import { isDatabaseUnavailable } from '../common/errors/database-unavailable.js';
import { databaseDeadline, databaseTimeLeft, withDatabaseDeadline } from '../database/database-deadline.js';
import { runInTransaction } from '../database/run-in-transaction.js';
import { SensorRecordInsert } from './sensor-record-insert.js';
import { sensorChanges } from './sensor-changes.js';
import { SensorUpsert } from './sensor-upsert.js';
import type { NewSensorRecordRow } from './new-sensor-record.row.js';

export interface WriterLimits {
  /** Transactions writing at once; the rest of the rows wait in the queue and form the next batch. */
  maxBatchesInFlight: number;
  maxRowsPerBatch: number;
}

/**
 * Chosen with `npm run bench` (32 connections, pool of 10): one batch in flight left the service
 * waiting on the database (-12 % requests/s), four made batches smaller without gaining anything.
 * Batches there average about 10 rows; 64 only bounds the statement's size.
 */
export const DEFAULT_WRITER_LIMITS: WriterLimits = { maxBatchesInFlight: 2, maxRowsPerBatch: 64 };

/**
 * A COMMIT is sent only with at least this long left before the deadline (a healthy database
 * commits in a few milliseconds); with less, the batch is rolled back and answered 503, so that a
 * COMMIT whose answer comes too late stays the exception it has to be.
 */
export const MIN_TIME_FOR_COMMIT_MS = 100;

interface PendingRow {
  row: NewSensorRecordRow;
  /** The caller's database deadline (epoch ms), Infinity when it has none. */
  deadline: number;
  resolve: (nid: number) => void;
  reject: (error: unknown) => void;
}

/**
 * Stores rows submitted by concurrent requests: while a batch is being written, the rows that arrive
 * queue up and are then written together, one multi-row INSERT in one transaction. That costs the
 * database about six statements per batch instead of five per row. Each caller gets its own row's
 * nid, and only after the COMMIT.
 *
 * A row keeps the database deadline of the request that wrote it: a row whose deadline passes while
 * it queues is refused without being written, and a batch works to the earliest deadline among its
 * rows, rolling back rather than committing when too little time is left.
 */
export class SensorRecordWriter {
  private readonly queue: PendingRow[] = [];
  private batchesInFlight = 0;
  private readonly insert: SensorRecordInsert;
  private readonly sensors: SensorUpsert;

  /** `dataSource` must be initialised (the INSERT is built from its entity metadata). */
  constructor(
    private readonly dataSource: DataSource,
    private readonly limits: WriterLimits = DEFAULT_WRITER_LIMITS,
  ) {
    this.insert = new SensorRecordInsert(dataSource);
    this.sensors = new SensorUpsert(dataSource);
  }

  /** Resolves with the row's nid once it is committed, with `vid` = `nid`. */
  write(row: NewSensorRecordRow): Promise<number> {
    const deadline = databaseDeadline() ?? Infinity;
    return new Promise<number>((resolve, reject) => {
      this.queue.push({ row, deadline, resolve, reject });
      this.startBatches();
    });
  }

  private startBatches(): void {
    while (this.batchesInFlight < this.limits.maxBatchesInFlight && this.queue.length > 0) {
      const batch = this.takeBatch();
      if (batch.length === 0) continue;
      this.batchesInFlight++;
      void this.writeBatch(batch).finally(() => {
        this.batchesInFlight--;
        this.startBatches();
      });
    }
  }

  /** The next rows to write; rows whose deadline passed while they queued are refused unwritten. */
  private takeBatch(now = Date.now()): PendingRow[] {
    const batch: PendingRow[] = [];
    while (batch.length < this.limits.maxRowsPerBatch && this.queue.length > 0) {
      const pending = this.queue.shift()!;
      if (pending.deadline > now) batch.push(pending);
      else pending.reject(new DatabaseTimeoutError('a turn to write the record'));
    }
    return batch;
  }

  private async writeBatch(batch: PendingRow[]): Promise<void> {
    try {
      const nids = await this.commit(batch);
      batch.forEach((pending, index) => pending.resolve(nids[index]!));
    } catch (error) {
      // An unavailable database would refuse each row again, and rows whose COMMIT went unconfirmed
      // may be stored already; otherwise one row's own fault must not fail the rest.
      if (batch.length === 1 || isDatabaseUnavailable(error)) {
        for (const pending of batch) pending.reject(error);
        return;
      }
      for (const pending of batch) {
        await this.commit([pending]).then(([nid]) => pending.resolve(nid!), pending.reject);
      }
    }
  }

  /** Inserts the rows and updates their sensors in one transaction; the nids, in the rows' order, once committed. */
  private commit(batch: PendingRow[]): Promise<number[]> {
    const rows = batch.map((pending) => pending.row);
    const deadline = Math.min(...batch.map((pending) => pending.deadline));
    const mysql = this.dataSource.options.type === 'mysql';
    return withDatabaseDeadline(deadline, () =>
      runInTransaction(this.dataSource, async (manager) => {
        await manager.query(...this.insert.query(rows));
        // Not the insert id plus an offset: innodb_autoinc_lock_mode=2 (MySQL 8's default) does not
        // promise consecutive ids within one multi-row INSERT.
        const nids = await nidsByUuid(manager, rows);
        await setRevisionIds(manager, nids);
        // The records' sensors, in the same transaction (docs/interface.md#sensors).
        await this.sensors.apply(manager, sensorChanges(rows, nids));
        // Thrown inside the transaction, so it is rolled back: nothing stored, the callers answered 503.
        if (databaseTimeLeft() < MIN_TIME_FOR_COMMIT_MS) throw new DatabaseTimeoutError('the COMMIT');
        return nids;
      }).catch((error: unknown) => {
        // On MySQL the COMMIT went over the network and its answer never came: the rows may be stored.
        // SQLite commits in-process; a failed COMMIT there leaves the transaction to be rolled back.
        throw mysql && isFailedCommit(error) ? new CommitUnconfirmedError(error) : error;
      }),
    );
  }
}

function isFailedCommit(error: unknown): boolean {
  return error instanceof QueryFailedError && error.query === 'COMMIT';
}

/** The nid of each row, found by its unique uuid inside the inserting transaction. */
async function nidsByUuid(manager: EntityManager, rows: NewSensorRecordRow[]): Promise<number[]> {
  const uuids = rows.map((row) => row.uuid);
  const found: Array<{ nid: number | string; uuid: string }> = await manager.query(
    `SELECT nid, uuid FROM sensor_report WHERE uuid IN (${placeholders(uuids)})`,
    uuids,
  );
  const nidOf = new Map(found.map((stored) => [stored.uuid, Number(stored.nid)]));
  return rows.map((row) => {
    const nid = nidOf.get(row.uuid);
    if (nid === undefined) throw new Error(`The inserted sensor record ${row.uuid} was not found`);
    return nid;
  });
}

/**
 * `vid` = `nid` for the given rows. On a small or freshly emptied table MySQL may choose to scan rather
 * than look the keys up; a scanning UPDATE locks every row it passes, including other batches'
 * uncommitted rows, and two concurrent batches then deadlock. Key lookups lock only this batch's rows.
 */
async function setRevisionIds(manager: EntityManager, nids: number[]): Promise<void> {
  const lookup = manager.connection.options.type === 'mysql' ? ' FORCE INDEX (PRIMARY)' : '';
  await manager.query(`UPDATE sensor_report${lookup} SET vid = nid WHERE nid IN (${placeholders(nids)})`, nids);
}

function placeholders(values: unknown[]): string {
  return values.map(() => '?').join(', ');
}
