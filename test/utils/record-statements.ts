import { AsyncLocalStorage } from 'node:async_hooks';
import type { Server } from 'node:http';
import type { EntitySubscriberInterface } from 'typeorm';
import type { TestApp } from './test-app.js';

/**
 * The SQL statements the application sends on behalf of the HTTP requests it serves while `work` runs,
 * transaction control included (TypeORM announces every statement to its subscribers before sending
 * it, in the asynchronous context of the code that sent it). The service's background rounds (the
 * signing keys' reading, housekeeping, gauges) share the data source and may run at any moment, the
 * more likely the slower the machine: their statements are not the request's, so they are not counted.
 */
export async function statementsDuring({ app, dataSource }: TestApp, work: () => Promise<unknown>): Promise<string[]> {
  const server = app.getHttpServer() as Server;
  const serving = new AsyncLocalStorage<true>();
  // Runs first of the server's request listeners, so the application's handler and all it awaits carry the mark.
  const markRequest = () => serving.enterWith(true);
  const statements: string[] = [];
  const recorder: EntitySubscriberInterface = { beforeQuery: (event) => void (serving.getStore() && statements.push(event.query)) };
  server.prependListener('request', markRequest);
  dataSource.subscribers.push(recorder);
  try {
    await work();
  } finally {
    dataSource.subscribers.splice(dataSource.subscribers.indexOf(recorder), 1);
    server.off('request', markRequest);
  }
  return statements;
}

/** A statement's kind: its first word, `BEGIN`/`START TRANSACTION` both as `BEGIN`. */
export function statementKind(sql: string): string {
  const word = sql.trim().split(/\s+/, 1)[0]!.toUpperCase();
  return word === 'START' ? 'BEGIN' : word;
}
