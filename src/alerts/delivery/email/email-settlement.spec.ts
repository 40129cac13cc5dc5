import { settleEmail } from './email-settlement.js';

const NOW = Date.parse('2026-11-26T01:00:00Z');
const DAY_MS = 24 * 3600_000;
const claimed = (id: number, ageMs: number, attempts: number) => ({ id, created: new Date(NOW - ageMs), attempts });
const group = [claimed(1, 3600_000, 3), claimed(2, 60_000, 1), claimed(3, 1000, 1)];

describe(settleEmail.name, () => {
  it('delivers every notification of an accepted message', () => {
    expect(settleEmail(group, { kind: 'delivered', status: 250 }, NOW, DAY_MS)).toEqual({ delivered: [1, 2, 3], failed: [], retry: [] });
  });

  it('fails every notification of a message refused for good', () => {
    expect(settleEmail(group, { kind: 'failed', reason: 'SMTP 550', status: 550 }, NOW, DAY_MS)).toEqual({
      delivered: [],
      failed: [1, 2, 3],
      retry: [],
    });
  });

  it('tries them again together, after the backoff of the most tried, on a whole second', () => {
    // attempts 3: the ceiling is 4 s, drawn from its upper half; random 0 gives 2 s.
    expect(settleEmail(group, { kind: 'retry', reason: 'SMTP 451' }, NOW + 300, DAY_MS, () => 0)).toEqual({
      delivered: [],
      failed: [],
      retry: [1, 2, 3],
      nextAttemptAt: new Date(NOW + 3000),
    });
  });

  it('fails those written 24 hours ago or more, and tries the others again', () => {
    const old = [claimed(1, DAY_MS, 30), claimed(2, DAY_MS - 1, 30), claimed(3, 5000, 2)];

    const sut = settleEmail(old, { kind: 'retry', reason: 'ECONNECTION' }, NOW, DAY_MS, () => 1);

    expect(sut).toEqual({ delivered: [], failed: [1], retry: [2, 3], nextAttemptAt: new Date(NOW + 15 * 60_000) });
  });

  it('fails all and sets no next attempt when every one is past its 24 hours', () => {
    expect(settleEmail([claimed(1, DAY_MS + 1, 40)], { kind: 'retry', reason: 'SMTP 451' }, NOW, DAY_MS)).toEqual({
      delivered: [],
      failed: [1],
      retry: [],
    });
  });
});
