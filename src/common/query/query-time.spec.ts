import { readQueryTime } from './query-time.js';

describe(readQueryTime.name, () => {
  it.each([
    ['2026-11-29 21:00', '2026-11-29 21:00'],
    ['2026-11-29 21:00:30', '2026-11-29 21:00:30'],
    ['2026-11-29 21:00:30.250', '2026-11-29 21:00:30.250'],
    ['2026-11-29T21:00', '2026-11-29T21:00'],
  ])('keeps the space or T between date and time: %s', (given, read) => {
    const time = readQueryTime(given);
    expect(time.text).toBe(read);
    expect(time.parsed).toMatchObject({ year: 2026, month: 11, day: 29, hour: 21, minute: 0, offsetMinutes: null });
  });

  it.each([
    ['2026-11-29T21:00:00 13:00', '2026-11-29T21:00:00+13:00'],
    ['2026-11-29T21:00 1300', '2026-11-29T21:00+1300'],
    ['2026-11-29 21:00 13:00', '2026-11-29 21:00+13:00'],
    ['2026-11-29 21:00:00.5 13', '2026-11-29 21:00:00.5+13'],
  ])("reads a space after the time of day as the offset's + sent unencoded: %s", (given, read) => {
    const time = readQueryTime(given);
    expect(time.text).toBe(read);
    expect(time.parsed?.offsetMinutes).toBe(13 * 60);
  });

  it('leaves a text that is no time unread', () => {
    expect(readQueryTime('2026-11-29 13:00 13:00 13:00').parsed).toBeNull();
    expect(readQueryTime('yesterday').parsed).toBeNull();
  });
});
