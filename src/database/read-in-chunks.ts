import { withDatabaseBudget } from './database-deadline.js';

/**
 * A keyset-ordered result read a chunk at a time, for answers streamed as they are read. The first
 * chunk is read at once, on the request's own database deadline, so that a database that is away is
 * answered 503 before anything is sent; every later chunk is read when the client has taken the ones
 * before (backpressure) and has a deadline of its own (`budgetMs`), however long the whole answer takes.
 * `readChunk(previous)` reads the chunk after the row `previous` (the first when undefined); a chunk
 * shorter than `chunkSize` is the last.
 */
export async function readInChunks<R>(
  readChunk: (previous: R | undefined) => Promise<R[]>,
  chunkSize: number,
  budgetMs: number,
): Promise<AsyncGenerator<R[]>> {
  const first = await readChunk(undefined);
  async function* chunks(): AsyncGenerator<R[]> {
    let chunk = first;
    if (chunk.length > 0) yield chunk;
    while (chunk.length === chunkSize) {
      const previous = chunk.at(-1);
      chunk = await withDatabaseBudget(budgetMs, () => readChunk(previous));
      if (chunk.length > 0) yield chunk;
    }
  }
  return chunks();
}
