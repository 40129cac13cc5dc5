import { currentRequestId } from '../common/http/request-scope.js';
import { databaseDeadline, databaseTimeLeft, withDatabaseBudget, withDatabaseDeadline } from './database-deadline.js';

describe('database deadlines', () => {
  it('leaves waits unbounded outside any scope', () => {
    expect(databaseDeadline()).toBeUndefined();
    expect(databaseTimeLeft()).toBe(Infinity);
  });

  it('starts a budget at the first wait of its scope, and shares it with every later wait', async () => {
    await withDatabaseBudget(3000, async () => {
      expect(databaseTimeLeft(1_000_000)).toBe(3000);
      await Promise.resolve();
      expect(databaseDeadline(1_000_500)).toBe(1_003_000);
      expect(databaseTimeLeft(1_002_000)).toBe(1000);
      expect(databaseTimeLeft(1_004_000)).toBe(-1000);
    });
  });

  it('follows the work through awaits and timers, and ends with the scope', async () => {
    const seen = await withDatabaseDeadline(1_000, async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return databaseDeadline();
    });

    expect(seen).toBe(1_000);
    expect(databaseDeadline()).toBeUndefined();
  });

  it('gives work done for others a deadline of its own, whatever scope starts it', () => {
    withDatabaseBudget(3000, () => {
      databaseDeadline(1_000_000);
      expect(withDatabaseDeadline(5_000_000, () => databaseDeadline())).toBe(5_000_000);
      expect(withDatabaseDeadline(Infinity, () => databaseTimeLeft())).toBe(Infinity);
      expect(databaseDeadline()).toBe(1_003_000);
    });
  });

  it("keeps the request's id in every scope opened inside its own, for the lines they log", () => {
    withDatabaseBudget(
      3000,
      () => {
        expect(currentRequestId()).toBe('trap-42');
        expect(withDatabaseDeadline(5_000_000, () => currentRequestId())).toBe('trap-42');
        expect(withDatabaseBudget(1000, () => currentRequestId())).toBe('trap-42');
      },
      'trap-42',
    );
    expect(currentRequestId()).toBeUndefined();
  });
});
