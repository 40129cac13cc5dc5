import { nextAttemptAt } from './send-outcome.js';

const NOW = Date.parse('2026-11-26T01:00:00Z');

describe(nextAttemptAt.name, () => {
  it('puts a first retry, drawn under a second, on the next whole second: a datetime column would cut the fraction off', () => {
    // attempts 1: the ceiling is 1 s, drawn from its upper half; random 0 gives 0.5 s.
    expect(nextAttemptAt(NOW, 1, undefined, () => 0)).toEqual(new Date(NOW + 1000));
    expect(nextAttemptAt(NOW + 400, 1, undefined, () => 0)).toEqual(new Date(NOW + 1000));
    expect(nextAttemptAt(NOW + 600, 1, undefined, () => 0)).toEqual(new Date(NOW + 2000));
  });

  it('rounds up, never down, so a retry is never due before its backoff', () => {
    for (const random of [0, 0.3, 0.77, 0.999]) {
      const next = nextAttemptAt(NOW + 123, 2, undefined, () => random).getTime();
      expect(next % 1000).toBe(0);
      expect(next).toBeGreaterThanOrEqual(NOW + 123 + 1000 * (0.5 + random / 2) * 2);
      expect(next - (NOW + 123)).toBeLessThan(1000 * (0.5 + random / 2) * 2 + 1000);
    }
  });

  it("waits for the receiver's Retry-After when longer, at most an hour, and doubles up to 15 minutes", () => {
    expect(nextAttemptAt(NOW, 1, 30_000, () => 0)).toEqual(new Date(NOW + 30_000));
    expect(nextAttemptAt(NOW, 1, 5 * 3600_000, () => 0)).toEqual(new Date(NOW + 3600_000));
    expect(nextAttemptAt(NOW, 40, undefined, () => 1)).toEqual(new Date(NOW + 15 * 60_000));
  });
});
