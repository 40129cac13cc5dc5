import { jest } from '@jest/globals';
import type { EntityManager } from 'typeorm';
import { MultiRowInsert } from './multi-row-insert.js';

/** A manager on SQLite, whose statements go through `query`: what each statement was. */
function sqliteManager() {
  const query = jest.fn(async (_sql: string, _values: unknown[]) => []);
  return { manager: { connection: { options: { type: 'better-sqlite3' } }, query } as unknown as EntityManager, query };
}

describe(MultiRowInsert.name, () => {
  it('inserts 100 rows in order as statements of 64, 32 and 4 rows, each row its own placeholders', async () => {
    const { manager, query } = sqliteManager();
    const sut = new MultiRowInsert('INSERT INTO t (a, b) VALUES ', 2, 'ON CONFLICT (a) DO NOTHING');
    const rows = Array.from({ length: 100 }, (_, index) => [index, `row ${index}`]);

    await sut.run(manager, rows);

    const statements = query.mock.calls.map(([sql, values]) => ({ rows: sql.split('(?, ?)').length - 1, sql, values }));
    expect(statements.map((statement) => statement.rows)).toEqual([64, 32, 4]);
    expect(statements[2]!.sql).toBe('INSERT INTO t (a, b) VALUES (?, ?), (?, ?), (?, ?), (?, ?) ON CONFLICT (a) DO NOTHING');
    expect(statements.flatMap((statement) => statement.values)).toEqual(rows.flat());
  });

  it('makes one statement of any number of rows for the text protocol, the values in order', () => {
    const sut = new MultiRowInsert('INSERT INTO t (a, b, c) VALUES ', ['?', '?', "'x'"], 'ON CONFLICT (a) DO NOTHING');
    const rows = Array.from({ length: 3 }, (_, index) => [index, `row ${index}`]);

    expect(sut.statement(rows)).toEqual({
      sql: "INSERT INTO t (a, b, c) VALUES (?, ?, 'x'), (?, ?, 'x'), (?, ?, 'x') ON CONFLICT (a) DO NOTHING",
      parameters: rows.flat(),
    });
  });

  it('sends nothing for no rows', async () => {
    const { manager, query } = sqliteManager();

    await new MultiRowInsert('INSERT INTO t (a) VALUES ', 1).run(manager, []);

    expect(query).not.toHaveBeenCalled();
  });
});
