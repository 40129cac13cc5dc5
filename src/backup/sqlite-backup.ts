import Database from 'better-sqlite3';

/**
 * Copies the SQLite database at `source` to `target` with SQLite's online backup (better-sqlite3's
 * `backup`), beside a service that keeps writing: the copy is the database as of one moment. After a
 * first step the rest is copied in one step, inside one read transaction, which in WAL mode never
 * blocks the writers, rather than page by page (each page-by-page step would start again whenever
 * another process wrote in between).
 */
export async function backupSqlite(source: string, target: string): Promise<{ pages: number }> {
  const db = new Database(source, { readonly: true, fileMustExist: true });
  try {
    const result = await db.backup(target, { progress: ({ totalPages }) => Math.max(totalPages, 100) });
    return { pages: result.totalPages };
  } finally {
    db.close();
  }
}
