import { type EntityManager, QueryFailedError } from 'typeorm';
import type { PooledConnection } from './mysql2-pool.js';
import type { Statement } from './send-together.js';

/**
 * Rows one statement holds at most. On MySQL each statement is prepared once per connection and kept
 * (mysql2's cache), so the statements come in few sizes: 64 rows, then the rest as powers of two (100
 * rows are 64 + 32 + 4). Each size the server keeps costs it memory per parameter, for as long as the
 * connection lives.
 */
const MAX_ROWS_PER_STATEMENT = 64;

/**
 * A multi-row INSERT with `?` placeholders, run on MySQL as prepared statements: the values travel in
 * the binary protocol, none formatted or escaped into the SQL text, which on the text protocol cost more
 * than any other part of a batch's SQL (docs/benchmark.md#where-the-time-goes). On SQLite the same
 * statements go through TypeORM's query.
 */
export class MultiRowInsert {
  private readonly texts = new Map<number, string>();
  private readonly rowPlaceholders: string;

  /**
   * `head`: `INSERT INTO t (a, b) VALUES `; `row`: the number of values a row binds, or the SQL of each of
   * its values in the head's order, `?` for a bound one or a literal every row has; `tail`, after the
   * rows: an ON DUPLICATE KEY / ON CONFLICT clause.
   */
  constructor(
    private readonly head: string,
    row: number | readonly string[],
    private readonly tail = '',
  ) {
    this.rowPlaceholders = `(${(typeof row === 'number' ? new Array<string>(row).fill('?') : row).join(', ')})`;
  }

  /** Inserts the rows (each its bound values, in the head's order) in order, in the transaction of `manager`. */
  async run(manager: EntityManager, rows: unknown[][]): Promise<void> {
    for (let start = 0; start < rows.length;) {
      const count = statementRows(rows.length - start);
      const values: unknown[] = [];
      for (let index = start; index < start + count; index++) for (const value of rows[index]!) values.push(value);
      await runStatement(manager, this.text(count), values);
      start += count;
    }
  }

  /**
   * The rows as one statement of the text protocol, to be sent with others (send-together.ts): for
   * rows few values each, whose escaping costs less than the round trips of the prepared statements.
   */
  statement(rows: unknown[][]): Statement {
    const parameters: unknown[] = [];
    for (const row of rows) for (const value of row) parameters.push(value);
    return { sql: this.textOf(rows.length), parameters };
  }

  private text(rows: number): string {
    let text = this.texts.get(rows);
    if (text === undefined) {
      text = this.textOf(rows);
      this.texts.set(rows, text);
    }
    return text;
  }

  private textOf(rows: number): string {
    return `${this.head}${new Array<string>(rows).fill(this.rowPlaceholders).join(', ')}${this.tail ? ` ${this.tail}` : ''}`;
  }
}

/** The rows of the next statement: 64, or the largest power of two not above what is left. */
function statementRows(left: number): number {
  if (left >= MAX_ROWS_PER_STATEMENT) return MAX_ROWS_PER_STATEMENT;
  return 2 ** Math.floor(Math.log2(left));
}

async function runStatement(manager: EntityManager, sql: string, values: unknown[]): Promise<void> {
  const runner = manager.queryRunner;
  if (manager.connection.options.type !== 'mysql' || !runner) {
    await manager.query(sql, values);
    return;
  }
  // The transaction's own connection (bounded-mysql2.ts bounds `execute` by the request's deadline).
  const connection = (await runner.connect()) as PooledConnection;
  await new Promise<void>((resolve, reject) => {
    connection.execute(sql, values, (error) => {
      if (!error) return resolve();
      // As TypeORM's query reports a failed statement, so that it is logged and read the same way.
      manager.connection.logger.logQueryError(error, sql, values, runner);
      reject(new QueryFailedError(sql, values, error));
    });
  });
}
