import type { DataSource, EntitySubscriberInterface } from 'typeorm';

/**
 * The SQL statements the data source sends while `work` runs, transaction control included (TypeORM
 * announces every statement to its subscribers before sending it).
 */
export async function statementsDuring(dataSource: DataSource, work: () => Promise<unknown>): Promise<string[]> {
  const statements: string[] = [];
  const recorder: EntitySubscriberInterface = { beforeQuery: (event) => void statements.push(event.query) };
  dataSource.subscribers.push(recorder);
  try {
    await work();
  } finally {
    dataSource.subscribers.splice(dataSource.subscribers.indexOf(recorder), 1);
  }
  return statements;
}

/** A statement's kind: its first word, `BEGIN`/`START TRANSACTION` both as `BEGIN`. */
export function statementKind(sql: string): string {
  const word = sql.trim().split(/\s+/, 1)[0]!.toUpperCase();
  return word === 'START' ? 'BEGIN' : word;
}
