import { randomUUID } from 'node:crypto';
import type { DataSource, TransactionCommitEvent } from 'typeorm';
import { buildDataSourceOptions } from '../database/data-source-options.js';
import { withDatabaseDeadline } from '../database/database-deadline.js';
import { initializeDataSource } from '../database/initialize-data-source.js';
import { sensorRecordRowStub } from '../../test/fixtures/sensor-record-row.stub.js';
import { DuplicateUplinkError } from './duplicate-uplink.error.js';
import { MIN_TIME_FOR_COMMIT_MS, SensorRecordWriter } from './sensor-record-writer.js';
import type { NewSensorRecordRow } from './new-sensor-record.row.js';
import type { SensorTransitionSink } from '../sensor/projection/sensor-transition.js';

const reportRow = (sequence: number, uuid: string = randomUUID()): NewSensorRecordRow => ({
  ...sensorRecordRowStub,
  uuid,
  fieldSequence: sequence,
});

const connectionLost = () =>
  Object.assign(new Error('Connection lost: The server closed the connection.'), { code: 'PROTOCOL_CONNECTION_LOST' });

/** Lets the event loop turn until `condition` holds: no timer, so it proves nothing by waiting long enough. */
async function waitUntil(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

describe(SensorRecordWriter.name, () => {
  let dataSource: DataSource;
  let sut: SensorRecordWriter;
  /** Per committed (or attempted) transaction: how many rows it could see and how many writes had resolved. */
  let commits: Array<{ visibleRows: number; resolvedWrites: number }>;
  let resolvedWrites: number;
  let failCommit: (() => Error) | undefined;
  let rollbacks: number;

  const stored = async () =>
    (await dataSource.query('SELECT nid, vid, uuid, field_sequence AS sequence FROM sensor_report ORDER BY nid')) as Array<{
      nid: number;
      vid: number;
      uuid: string;
      sequence: number;
    }>;
  const write = (row: NewSensorRecordRow) =>
    sut.write(row).then((nid) => {
      resolvedWrites++;
      return nid;
    });

  beforeEach(async () => {
    // No query logging: the per-row fallback test fails a query on purpose.
    const options = buildDataSourceOptions({ type: 'sqlite', path: ':memory:', migrationsRun: true, requestTimeoutMs: 3000 });
    dataSource = await initializeDataSource({ ...options, logging: false });
    // The user the rows name: sensor_report.uid and revision_uid must refer to one.
    await dataSource.query(
      "INSERT INTO users (uid, uuid, name, pass, status, may_create_sensor_records, created, changed) VALUES (?, 'a1b2c3d4-0000-4000-8000-000000000007', 'trap-user', 'x', 1, 1, '2026-01-01', '2026-01-01')",
      [sensorRecordRowStub.uid],
    );
    commits = [];
    resolvedWrites = 0;
    failCommit = undefined;
    rollbacks = 0;
    dataSource.subscribers.push({
      afterTransactionRollback: () => void rollbacks++,
      beforeTransactionCommit: async (event: TransactionCommitEvent) => {
        const [{ count }] = (await event.queryRunner.query('SELECT COUNT(*) AS count FROM sensor_report')) as [{ count: number }];
        commits.push({ visibleRows: count, resolvedWrites });
        if (failCommit) throw failCommit();
      },
    });
    sut = new SensorRecordWriter(dataSource, { maxBatchesInFlight: 1, maxRowsPerBatch: 3 });
  });

  afterEach(() => dataSource.destroy());

  it('writes rows that arrive while a batch is in flight as one transaction, each answered with its own nid', async () => {
    const rows = Array.from({ length: 7 }, (_, index) => reportRow(index));

    const nids = await Promise.all(rows.map(write));

    expect(commits.map((commit) => commit.visibleRows)).toEqual([1, 4, 7]);
    expect(new Set(nids).size).toBe(7);
    const byNid = new Map((await stored()).map((row) => [row.nid, row]));
    rows.forEach((row, index) =>
      expect(byNid.get(nids[index]!)).toEqual({ nid: nids[index], vid: nids[index], uuid: row.uuid, sequence: index }),
    );
  });

  it('answers no write before the transaction holding its row has committed', async () => {
    await Promise.all(Array.from({ length: 7 }, (_, index) => write(reportRow(index))));

    // Each batch's rows are visible to its own transaction before COMMIT, but only earlier batches have answered.
    expect(commits).toEqual([
      { visibleRows: 1, resolvedWrites: 0 },
      { visibleRows: 4, resolvedWrites: 1 },
      { visibleRows: 7, resolvedWrites: 4 },
    ]);
  });

  it('retries the submissions of a failed batch one by one, so one bad row fails alone', async () => {
    const taken = reportRow(0);
    const first = write(taken);
    const batch = [reportRow(1), reportRow(2, taken.uuid), reportRow(3)].map(write);
    await first;

    const [good1, duplicate, good3] = await Promise.allSettled(batch);

    expect(duplicate).toMatchObject({ status: 'rejected', reason: { code: 'SQLITE_CONSTRAINT_UNIQUE' } });
    expect(good1?.status).toBe('fulfilled');
    expect(good3?.status).toBe('fulfilled');
    expect((await stored()).map((row) => [row.sequence, row.vid === row.nid])).toEqual([
      [0, true],
      [1, true],
      [3, true],
    ]);
  });

  describe('with units of several rows (the rows of one request)', () => {
    const unitOf = (sequences: number[]) => sequences.map((sequence) => reportRow(sequence));

    it("stores a unit's rows in one transaction and answers their nids together, in the unit's order", async () => {
      const rows = unitOf([10, 11, 12]);

      const nids = await sut.writeTogether(rows);

      expect(commits.map((commit) => commit.visibleRows)).toEqual([3]);
      expect(await stored()).toEqual(
        rows.map((row, index) => ({ nid: nids[index], vid: nids[index], uuid: row.uuid, sequence: 10 + index })),
      );
    });

    it('takes whole units in order up to the row cap, and a unit larger than the cap alone', async () => {
      const first = write(reportRow(0));
      const queued = [unitOf([1]), unitOf([2]), unitOf([3, 4]), unitOf([5, 6, 7, 8, 9]), unitOf([10])].map((rows) =>
        sut.writeTogether(rows),
      );
      await Promise.all([first, ...queued]);

      // Cap 3: [0], then [1] [2] together (the unit of two would make four), [3 4], [5 … 9] alone, [10].
      expect(commits.map((commit) => commit.visibleRows)).toEqual([1, 3, 5, 10, 11]);
    });

    it("retries unit by unit after a failure of a unit's own making: the unit holding the bad row fails whole", async () => {
      const taken = reportRow(0);
      const first = write(taken);
      const spoilt = sut.writeTogether([reportRow(1), reportRow(2, taken.uuid)]);
      const neighbour = write(reportRow(3));
      await first;

      const [spoiltResult, neighbourResult] = await Promise.allSettled([spoilt, neighbour]);

      expect(spoiltResult).toMatchObject({ status: 'rejected', reason: { code: 'SQLITE_CONSTRAINT_UNIQUE' } });
      expect(neighbourResult.status).toBe('fulfilled');
      expect((await stored()).map((row) => row.sequence)).toEqual([0, 3]);
    });

    it('splits the INSERT of a unit larger than one statement may bind, in one transaction still', async () => {
      const inserts: string[] = [];
      dataSource.subscribers.push({ beforeQuery: (event) => void (/^INSERT INTO/.test(event.query) && inserts.push(event.query)) });
      const rows = Array.from({ length: 1100 }, (_, index) => reportRow(index));

      const nids = await sut.writeTogether(rows);

      expect(inserts.length).toBeGreaterThan(1);
      expect(commits).toHaveLength(1);
      const byNid = new Map((await stored()).map((row) => [row.nid, row]));
      expect(byNid.size).toBe(1100);
      rows.forEach((row, index) => expect(byNid.get(nids[index]!)).toMatchObject({ vid: nids[index], uuid: row.uuid, sequence: index }));
    });
  });

  it("refuses a row whose uplink is stored already as that uplink's duplicate, alone or in a batch", async () => {
    const uplink = (sequence: number): NewSensorRecordRow => ({
      ...reportRow(sequence),
      uplinkKey: '7:tts:as:up:01GZ4T2Q9V3WJ6K8M1N5P7R0SB',
    });
    const first = write(uplink(0));
    const batch = [reportRow(1), uplink(2), reportRow(3)].map(write);
    await first;

    const [good1, duplicate, good3] = await Promise.allSettled(batch);
    const alone = write(uplink(4));

    await expect(alone).rejects.toBeInstanceOf(DuplicateUplinkError);
    expect(duplicate).toMatchObject({ status: 'rejected', reason: { uplinkKey: '7:tts:as:up:01GZ4T2Q9V3WJ6K8M1N5P7R0SB' } });
    expect((duplicate as PromiseRejectedResult).reason).toBeInstanceOf(DuplicateUplinkError);
    expect([good1?.status, good3?.status]).toEqual(['fulfilled', 'fulfilled']);
    expect((await stored()).map((row) => row.sequence)).toEqual([0, 1, 3]);
  });

  it('rejects every write of the batch, storing none and retrying none, when the database is unavailable', async () => {
    failCommit = connectionLost;

    const results = await Promise.allSettled([1, 2, 3].map((sequence) => write(reportRow(sequence))));

    expect(results).toEqual(
      Array.from({ length: 3 }, () => ({ status: 'rejected', reason: expect.objectContaining({ code: 'PROTOCOL_CONNECTION_LOST' }) })),
    );
    expect(commits).toHaveLength(2); // the first row alone, then the other two together: no per-row retry
    expect(await stored()).toEqual([]);
  });

  it('keeps writing once the database is back', async () => {
    failCommit = connectionLost;
    await expect(write(reportRow(1))).rejects.toMatchObject({ code: 'PROTOCOL_CONNECTION_LOST' });
    failCommit = undefined;

    const nid = await write(reportRow(2));

    expect(await stored()).toEqual([{ nid, vid: nid, uuid: expect.any(String), sequence: 2 }]);
  });

  describe("with a sink for the sensors' transitions", () => {
    /** Records what it is handed and answers `announce` (whether it wrote something to announce after the commit). */
    const sinkAnswering = (announce: boolean) => {
      const seen = { recorded: 0, committed: 0 };
      const sink: SensorTransitionSink = {
        record: async (_manager, transitions) => {
          seen.recorded += transitions.length;
          return announce;
        },
        committed: () => void seen.committed++,
      };
      return { sink, seen };
    };

    it('tells it of the commit when it wrote something to announce', async () => {
      const { sink, seen } = sinkAnswering(true);
      sut = new SensorRecordWriter(dataSource, { maxBatchesInFlight: 1, maxRowsPerBatch: 3 }, sink);

      await sut.write(reportRow(1));

      expect(seen.recorded).toBeGreaterThan(0);
      expect(seen.committed).toBe(1);
    });

    it('does not tell it of a commit that gave it nothing to announce', async () => {
      const { sink, seen } = sinkAnswering(false);
      sut = new SensorRecordWriter(dataSource, { maxBatchesInFlight: 1, maxRowsPerBatch: 3 }, sink);

      await sut.write(reportRow(1));

      expect(seen.recorded).toBeGreaterThan(0);
      expect(seen.committed).toBe(0);
    });
  });

  describe('with a database deadline', () => {
    it('refuses a row whose deadline passed before its turn, writing nothing', async () => {
      const late = withDatabaseDeadline(Date.now() - 1, () => sut.write(reportRow(1)));

      await expect(late).rejects.toMatchObject({ code: 'DATABASE_WAIT_TIMEOUT' });
      expect(commits).toEqual([]);
      expect(rollbacks).toBe(0);
      expect(await stored()).toEqual([]);
    });

    it('refuses a queued row at its deadline, without waiting for the batch in flight to end', async () => {
      let releaseCommit!: () => void;
      const commitHeld = new Promise<void>((resolve) => (releaseCommit = resolve));
      dataSource.subscribers.push({ beforeTransactionCommit: () => commitHeld });
      const inFlight = write(reportRow(1));
      await waitUntil(() => commits.length === 1);

      const queued = withDatabaseDeadline(Date.now() - 1, () => sut.write(reportRow(2)));

      await expect(queued).rejects.toMatchObject({ code: 'DATABASE_WAIT_TIMEOUT' });
      expect(resolvedWrites).toBe(0);
      releaseCommit();
      await inFlight;
      expect((await stored()).map((row) => row.sequence)).toEqual([1]);
    });

    it('rolls the batch back instead of sending COMMIT with too little time left', async () => {
      const hurried = withDatabaseDeadline(Date.now() + MIN_TIME_FOR_COMMIT_MS / 2, () => sut.write(reportRow(1)));

      await expect(hurried).rejects.toMatchObject({ code: 'DATABASE_WAIT_TIMEOUT' });
      expect(commits).toEqual([]);
      expect(rollbacks).toBe(1);
      expect(await stored()).toEqual([]);
    });

    it('commits when enough time is left', async () => {
      const nid = await withDatabaseDeadline(Date.now() + 60_000, () => sut.write(reportRow(1)));

      expect(await stored()).toEqual([{ nid, vid: nid, uuid: expect.any(String), sequence: 1 }]);
    });
  });
});
