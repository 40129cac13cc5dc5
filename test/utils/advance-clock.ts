import { jest } from '@jest/globals';

/**
 * Runs `work` with `Date` moved `ms` ahead and nothing else faked (timers, I/O and the database run as
 * usual), so a test can step past a cache's lifetime without waiting for it.
 */
export async function withClockAdvancedBy<T>(ms: number, work: () => Promise<T>): Promise<T> {
  jest.useFakeTimers({
    doNotFake: ['hrtime', 'nextTick', 'performance', 'queueMicrotask', 'setImmediate', 'clearImmediate', 'setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'],
    now: Date.now() + ms,
  });
  try {
    return await work();
  } finally {
    jest.useRealTimers();
  }
}
