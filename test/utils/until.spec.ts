import { until } from './until.js';

describe('until', () => {
  it('resolves once the condition holds', async () => {
    let checks = 0;
    await until(() => ++checks >= 3);
    expect(checks).toBe(3);
  });

  it('fails after its bound, naming the condition and the last value it read', async () => {
    const queue = { waiting: 2 };
    await expect(
      until(
        () => queue.waiting,
        (waiting) => waiting === 0,
        { withinMs: 50 },
      ),
    ).rejects.toThrow(/^Not true within 0\.05 s: .*queue\.waiting.* then .*waiting === 0.*; last seen: 2$/);
    await expect(until(() => queue.waiting === 0, { withinMs: 50 })).rejects.toThrow(/queue\.waiting === 0.*; last seen: false$/);
  });
});
