import { jest } from '@jest/globals';
import type { EntityManager } from 'typeorm';
import { sendThenRead, sendTogether } from './send-together.js';

const FIRST = Object.freeze({ sql: 'INSERT INTO a (x) VALUES (?)', parameters: [1] });
const SECOND = Object.freeze({ sql: 'UPDATE b SET y = ? WHERE id = ? AND y = 0', parameters: [2, 3] });

/** A manager on MySQL whose one query answers `raw`, as mysql2 does. */
function mysqlManager(raw: unknown) {
  const query = jest.fn(async (_sql: string, _values: unknown[]) => raw);
  return { manager: { connection: { options: { type: 'mysql' } }, query } as unknown as EntityManager, query };
}

describe(sendTogether.name, () => {
  it('sends the statements to MySQL as one query, in order, with their values in order', async () => {
    const { manager, query } = mysqlManager([{ affectedRows: 1 }, { affectedRows: 0 }]);

    await sendTogether(manager, [FIRST, SECOND]);

    expect(query.mock.calls).toEqual([['INSERT INTO a (x) VALUES (?);\nUPDATE b SET y = ? WHERE id = ? AND y = 0', [1, 2, 3]]]);
  });

  it("answers the rows each statement changed, from MySQL's list of results", async () => {
    const { manager } = mysqlManager([{ affectedRows: 1 }, { affectedRows: 0 }]);

    await expect(sendTogether(manager, [FIRST, SECOND])).resolves.toEqual([1, 0]);
  });

  it('reads the result of a single statement, which MySQL does not wrap in a list', async () => {
    const { manager } = mysqlManager({ affectedRows: 1 });

    await expect(sendTogether(manager, [FIRST])).resolves.toEqual([1]);
  });
});

describe(sendThenRead.name, () => {
  const READ = Object.freeze({ sql: 'SELECT y FROM b WHERE id = ?', parameters: [3] });

  it('sends the writes and the read to MySQL as one query, and answers the rows each write changed and the rows read', async () => {
    const { manager, query } = mysqlManager([{ affectedRows: 1 }, { affectedRows: 0 }, [{ y: 2 }]]);

    await expect(sendThenRead(manager, [FIRST, SECOND], READ)).resolves.toEqual({ changed: [1, 0], rows: [{ y: 2 }] });
    expect(query.mock.calls).toEqual([
      ['INSERT INTO a (x) VALUES (?);\nUPDATE b SET y = ? WHERE id = ? AND y = 0;\nSELECT y FROM b WHERE id = ?', [1, 2, 3, 3]],
    ]);
  });
});
