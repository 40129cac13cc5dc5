import type { DataSource } from 'typeorm';
import type { DatabaseOutage } from './database-outage.js';

/** A record answered 201, as the answer names it (its body's `nid` and `uuid`). */
export interface Acknowledged {
  devId: string;
  nid?: number;
  uuid?: string;
}

/** What unstoredRecords found: the answers without their row and, only then, what can say why. */
interface Unstored<T> {
  unstored: T[];
  /** The session that read through the application's pool: its id, its database, and whether a transaction (an older snapshot) was open on it. */
  reader?: unknown;
  /** The rows read past the pool and the outage, and the server's sessions and open transactions (DatabaseOutage.state). */
  database?: unknown;
}

/**
 * The 201s the database does not hold: no row with the answer's nid, uuid and dev_id, read through the
 * application's pool as the service reads. `{ unstored: [] }` when every one is stored; otherwise each
 * answer, with what tells the possible causes apart: a reader inside a transaction of its own sees an
 * older snapshot; a row the pool does not show and a connection of its own does was committed after
 * the read; a row neither shows was never committed or was removed.
 */
export async function unstoredRecords<T extends Acknowledged>(
  dataSource: DataSource,
  outage: DatabaseOutage,
  answers: T[],
): Promise<Unstored<T>> {
  const nids = answers.flatMap((answer) => (answer.nid === undefined ? [] : [answer.nid]));
  const runner = dataSource.createQueryRunner();
  try {
    const [reader] =
      outage.engine === 'mysql'
        ? ((await runner.query('SELECT CONNECTION_ID() AS session, DATABASE() AS db, @@in_transaction AS in_transaction')) as unknown[])
        : [undefined];
    const rows: Array<{ nid: number | string; uuid: string; field_sensor_id: string }> =
      nids.length === 0
        ? []
        : await runner.query(`SELECT nid, uuid, field_sensor_id FROM sensor_report WHERE nid IN (${nids.map(() => '?').join(', ')})`, nids);
    const byNid = new Map(rows.map((row) => [Number(row.nid), row]));
    const unstored = answers.filter((answer) => {
      const row = answer.nid === undefined ? undefined : byNid.get(answer.nid);
      return row?.uuid !== answer.uuid || row?.field_sensor_id !== answer.devId;
    });
    if (unstored.length === 0) return { unstored };
    const uuids = unstored.flatMap((answer) => (answer.uuid === undefined ? [] : [answer.uuid]));
    return { unstored, reader, database: await outage.state(uuids) };
  } finally {
    await runner.release();
  }
}
