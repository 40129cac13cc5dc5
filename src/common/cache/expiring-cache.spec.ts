import { ExpiringCache } from './expiring-cache.js';

const START = 1_800_000_000_000;

describe(ExpiringCache.name, () => {
  let now: number;
  const clock = { now: () => now };

  beforeEach(() => {
    now = START;
  });

  it('finds an entry for less than its lifetime', () => {
    const sut = new ExpiringCache<string, string>({ maxEntries: 10, ttlMs: 4000, clock });
    sut.set('key', 'value');

    now = START + 3999;
    expect(sut.get('key')).toBe('value');
    now = START + 4000;
    expect(sut.get('key')).toBeUndefined();
  });

  it('gives an entry a lifetime of its own, and stores nothing for one already over', () => {
    const sut = new ExpiringCache<string, string>({ maxEntries: 10, ttlMs: 4000, clock });
    sut.set('long', 'value', 60_000);
    sut.set('over', 'value', 0);

    now = START + 59_999;
    expect(sut.get('long')).toBe('value');
    expect(sut.get('over')).toBeUndefined();
    now = START + 60_000;
    expect(sut.get('long')).toBeUndefined();
  });

  it('keeps at most maxEntries, dropping the least recently used', () => {
    const sut = new ExpiringCache<string, number>({ maxEntries: 2, ttlMs: 4000, clock });
    sut.set('a', 1);
    sut.set('b', 2);
    sut.get('a');
    sut.set('c', 3);

    expect([sut.get('a'), sut.get('b'), sut.get('c')]).toEqual([1, undefined, 3]);
  });

  it('forgets a deleted entry', () => {
    const sut = new ExpiringCache<string, number>({ maxEntries: 2, ttlMs: 4000, clock });
    sut.set('a', 1);
    sut.delete('a');

    expect(sut.get('a')).toBeUndefined();
  });
});
