import { type DataSource, type EntityManager, QueryFailedError } from 'typeorm';
import { CommitUnconfirmedError } from '../common/errors/commit-unconfirmed.error.js';
import { DatabaseTimeoutError } from '../common/errors/database-timeout.error.js';
import { isDatabaseUnavailable } from '../common/errors/database-unavailable.js';
import { databaseDeadline, databaseTimeLeft, withDatabaseDeadline } from '../database/database-deadline.js';
import { runInTransaction } from '../database/run-in-transaction.js';
import { queryInTurn, queryTogether } from '../database/send-together.js';
import { isWriteConflict } from '../database/write-conflict.js';
import { DuplicateUplinkError, isUniqueViolation } from './duplicate-uplink.error.js';
import { MAX_BOUND_PARAMETERS, SensorRecordInsert } from './sensor-record-insert.js';
import { SensorProjection } from '../sensor/projection/sensor-projection.js';
import { projectedRecord } from '../sensor/projection/sensor-step.js';
import type { SensorTransition, SensorTransitionSink } from '../sensor/projection/sensor-transition.js';
import type { NewSensorRecordRow } from './new-sensor-record.row.js';

export interface WriterLimits {
  /** Transactions writing at once; the rest of the units wait in the queue and form the next batch. */
  maxBatchesInFlight: number;
  /** Rows a batch takes whole units up to; a unit larger than this is written alone. */
  maxRowsPerBatch: number;
}

/**
 * Chosen with `npm run bench`: one batch in flight left the service waiting on the database, four
 * made batches smaller without gaining anything; 64 only bounds the statement's size
 * (docs/benchmark.md#choices-made-by-measurement).
 */
export const DEFAULT_WRITER_LIMITS: WriterLimits = { maxBatchesInFlight: 2, maxRowsPerBatch: 64 };

/**
 * A COMMIT is sent only with at least this long left before the deadline (a healthy database
 * commits in a few milliseconds); with less, the batch is rolled back and answered 503, so that a
 * COMMIT whose answer comes too late stays the exception it has to be.
 */
export const MIN_TIME_FOR_COMMIT_MS = 100;

/** A unit: the rows of one request, committed together or not at all. */
interface PendingUnit {
  rows: NewSensorRecordRow[];
  /** The caller's database deadline (epoch ms), Infinity when it has none. */
  deadline: number;
  resolve: (nids: number[]) => void;
  reject: (error: unknown) => void;
  /** Refuses the unit at its deadline if it is still queued then. */
  expiry?: NodeJS.Timeout;
}

/**
 * Stores the rows of concurrent requests: while a batch is being written, the units that arrive (the
 * rows of one request each: one for a submission, up to a thousand for a batch of reports) queue up and
 * are then written together, a multi-row INSERT in one transaction (a "batch" in this file: the units
 * one transaction writes). That costs the database about six statements per batch instead of five per
 * row (the rows' sensors are updated in the same transaction). Each caller gets its own rows' nids, and only after the COMMIT.
 *
 * A unit keeps the database deadline of the request that wrote it: a unit whose deadline passes while
 * it queues is refused then, without being written, and a batch works to the earliest deadline among its
 * units, rolling back rather than committing when too little time is left.
 */
export class SensorRecordWriter {
  private readonly queue: PendingUnit[] = [];
  private batchesInFlight = 0;
  private readonly insert: SensorRecordInsert;
  private readonly sensors: SensorProjection;

  /**
   * `dataSource` must be initialised (the INSERT is built from its entity metadata). `transitions`,
   * when given, is handed what each batch changed in its sensors, inside the batch's transaction.
   */
  constructor(
    private readonly dataSource: DataSource,
    private readonly limits: WriterLimits = DEFAULT_WRITER_LIMITS,
    private readonly transitions?: SensorTransitionSink,
  ) {
    this.insert = new SensorRecordInsert(dataSource);
    this.sensors = new SensorProjection(dataSource);
  }

  /** Resolves with the row's nid once it is committed, with `vid` = `nid`. */
  async write(row: NewSensorRecordRow): Promise<number> {
    const [nid] = await this.writeTogether([row]);
    return nid!;
  }

  /** Stores the rows in one transaction, all or none; resolves with their nids, in order, once committed. */
  writeTogether(rows: NewSensorRecordRow[]): Promise<number[]> {
    const deadline = databaseDeadline() ?? Infinity;
    return new Promise<number[]>((resolve, reject) => {
      const unit: PendingUnit = { rows, deadline, resolve, reject };
      this.queue.push(unit);
      this.startBatches();
      // Answered at its deadline, not when a batch in flight (or its clean-up) next frees a turn.
      if (deadline !== Infinity && this.queue.includes(unit)) {
        unit.expiry = setTimeout(() => this.expire(unit), Math.max(0, deadline - Date.now()));
      }
    });
  }

  private expire(unit: PendingUnit): void {
    const index = this.queue.indexOf(unit);
    if (index < 0) return;
    this.queue.splice(index, 1);
    unit.reject(new DatabaseTimeoutError('a turn to write the record'));
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

  /**
   * The next units to write, in order: whole units up to the row cap, or one unit larger than the cap
   * alone. Units whose deadline passed while they queued are refused unwritten.
   */
  private takeBatch(now = Date.now()): PendingUnit[] {
    const batch: PendingUnit[] = [];
    let rows = 0;
    while (this.queue.length > 0) {
      const next = this.queue[0]!;
      if (batch.length > 0 && rows + next.rows.length > this.limits.maxRowsPerBatch) break;
      this.queue.shift();
      clearTimeout(next.expiry);
      if (next.deadline <= now) {
        next.reject(new DatabaseTimeoutError('a turn to write the record'));
        continue;
      }
      batch.push(next);
      rows += next.rows.length;
    }
    return batch;
  }

  private async writeBatch(batch: PendingUnit[]): Promise<void> {
    try {
      const nids = await this.commit(batch);
      let first = 0;
      for (const unit of batch) {
        unit.resolve(nids.slice(first, first + unit.rows.length));
        first += unit.rows.length;
      }
    } catch (error) {
      // An unavailable database would refuse each unit again, and units whose COMMIT went unconfirmed
      // may be stored already; otherwise one unit's own fault must not fail the rest.
      if (batch.length === 1 || isDatabaseUnavailable(error)) {
        for (const unit of batch) rejectUnit(unit, error);
        return;
      }
      for (const unit of batch) {
        await this.commit([unit]).then(unit.resolve, (unitError: unknown) => rejectUnit(unit, unitError));
      }
    }
  }

  /** Inserts the units' rows and updates their sensors in one transaction; the nids, in the rows' order, once committed. */
  private async commit(batch: PendingUnit[]): Promise<number[]> {
    const rows = batch.flatMap((unit) => unit.rows);
    const deadline = Math.min(...batch.map((unit) => unit.deadline));
    const mysql = this.dataSource.options.type === 'mysql';
    let transitions: SensorTransition[] = [];
    let announce = false;
    const nids = await withDatabaseDeadline(deadline, () =>
      runInTransaction(this.dataSource, async (manager) => {
        await this.insert.run(manager, rows);
        const together = rows.length > this.limits.maxRowsPerBatch;
        const nids = await storedIds(manager, rows, together);
        // The records' sensors, and what follows from their changes, in the same transaction
        // (docs/interface.md#sensors): a record is never stored without them, nor they without it.
        transitions = await this.sensors.apply(
          manager,
          rows.map((row, index) => projectedRecord(row, nids[index]!)),
          together,
        );
        announce = this.transitions !== undefined && transitions.length > 0 && (await this.transitions.record(manager, transitions));
        // Thrown inside the transaction, so it is rolled back: nothing stored, the callers answered 503.
        if (databaseTimeLeft() < MIN_TIME_FOR_COMMIT_MS) throw new DatabaseTimeoutError('the COMMIT');
        return nids;
      }).catch((error: unknown) => {
        // On MySQL the COMMIT went over the network and its answer never came: the rows may be stored.
        // SQLite commits in-process; a failed COMMIT there leaves the transaction to be rolled back.
        throw mysql && isFailedCommit(error) ? new CommitUnconfirmedError(error) : error;
      }),
    );
    if (announce) this.transitions?.committed(transitions);
    return nids;
  }
}

/**
 * A row refused on its own by a unique index, when it names an uplink, is that uplink stored already
 * (the uuid is random): its caller answers with the record stored first, never with an error.
 */
function rejectUnit(unit: PendingUnit, error: unknown): void {
  // Only an uplink's record carries a key, and it comes alone in its unit.
  const uplinkKey = unit.rows.length === 1 ? unit.rows[0]!.uplinkKey : null;
  unit.reject(uplinkKey !== null && isUniqueViolation(error) ? new DuplicateUplinkError(uplinkKey, error) : error);
}

/**
 * A COMMIT that failed without saying what became of it. A write conflict is an answer: the server
 * rolled the transaction back (runInTransaction has already run it again as often as it may). A COMMIT
 * refused at the deadline was never sent: its connection is closed rather than pooled
 * (bounded-mysql2.ts), so the server rolls the transaction back and nothing is stored.
 */
function isFailedCommit(error: unknown): boolean {
  return (
    error instanceof QueryFailedError &&
    error.query === 'COMMIT' &&
    !isWriteConflict(error) &&
    !(error.driverError instanceof DatabaseTimeoutError)
  );
}

/**
 * The nid of each row, found by its unique uuid inside the inserting transaction (not the insert id
 * plus an offset: innodb_autoinc_lock_mode=2, MySQL 8's default and a Galera cluster's, does not
 * promise consecutive ids within one multi-row INSERT), with `vid` set to it. The rows are reached
 * through the uuid's unique index: on a small or freshly emptied table MySQL may choose to scan rather
 * than look the keys up, and a scanning UPDATE locks every row it passes, including other batches'
 * uncommitted rows, so that two concurrent batches deadlock. Key lookups lock only this batch's rows.
 *
 * `together`, the UPDATE and the SELECT go to MySQL in one round trip: for a unit written alone (a
 * batch of reports larger than a batch's cap), whose transaction gathers nothing else. Units gathered
 * together keep a round trip each: there, a transaction that ends sooner gathers fewer of them, which
 * cost the single route more than the round trips saved (docs/benchmark.md#where-the-time-goes).
 */
async function storedIds(manager: EntityManager, rows: NewSensorRecordRow[], together: boolean): Promise<number[]> {
  const lookup = manager.connection.options.type === 'mysql' ? ' FORCE INDEX (sensor_report_uuid)' : '';
  const nidOf = new Map<string, number>();
  for (const uuids of chunks(rows.map((row) => row.uuid))) {
    const where = `WHERE uuid IN (${placeholders(uuids)})`;
    const statements = [
      { sql: `UPDATE sensor_report${lookup} SET vid = nid ${where}`, parameters: uuids },
      { sql: `SELECT nid, uuid FROM sensor_report${lookup} ${where}`, parameters: uuids },
    ];
    const [, found] = (await (together ? queryTogether : queryInTurn)(manager, statements)) as [
      unknown,
      Array<{ nid: number | string; uuid: string }>,
    ];
    for (const stored of found) nidOf.set(stored.uuid, Number(stored.nid));
  }
  return rows.map((row) => {
    const nid = nidOf.get(row.uuid);
    if (nid === undefined) throw new Error(`The inserted sensor record ${row.uuid} was not found`);
    return nid;
  });
}

function placeholders(values: unknown[]): string {
  return values.map(() => '?').join(', ');
}

/** The values in lists short enough to be bound as the parameters of one statement. */
function chunks<T>(values: T[], size = MAX_BOUND_PARAMETERS): T[][] {
  const parts: T[][] = [];
  for (let start = 0; start < values.length; start += size) parts.push(values.slice(start, start + size));
  return parts;
}
