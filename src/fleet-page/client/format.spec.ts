import { duration, isLowBattery, siteTimeFormatter, sprungClock, timeAgo, volts } from './format';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const NOW = Date.parse('2026-03-02T01:00:00Z');

describe('what the fleet page writes', () => {
  it('says how long ago to the minute, in hours and minutes up to two days, then in days', () => {
    expect(timeAgo(NOW - 59_999, NOW)).toBe('just now');
    expect(timeAgo(NOW - 12 * MINUTE - 59_000, NOW)).toBe('12 min ago');
    expect(timeAgo(NOW - 3 * HOUR, NOW)).toBe('3 h ago');
    expect(timeAgo(NOW - 47 * HOUR - 59 * MINUTE, NOW)).toBe('47 h 59 min ago');
    expect(timeAgo(NOW - 50 * HOUR, NOW)).toBe('2 days ago');
    // A clock a little ahead of the page's is not in the future.
    expect(timeAgo(NOW + 5_000, NOW)).toBe('just now');
    expect(duration(90 * MINUTE)).toBe('1 h 30 min');
  });

  it('keeps the 24-hour clock of a sprung trap: amber after 12 h, red after 20 h, deadline passed after 24 h', () => {
    expect(sprungClock(NOW - 11 * HOUR - 59 * MINUTE, NOW)).toEqual({
      level: 'due',
      since: 'Sprung 11 h 59 min ago',
      left: '12 h 1 min left',
    });
    expect(sprungClock(NOW - 12 * HOUR, NOW)).toEqual({ level: 'soon', since: 'Sprung 12 h ago', left: '12 h left' });
    expect(sprungClock(NOW - 20 * HOUR, NOW)).toEqual({ level: 'urgent', since: 'Sprung 20 h ago', left: '4 h left' });
    expect(sprungClock(NOW - 24 * HOUR + 30_000, NOW)).toEqual({
      level: 'urgent',
      since: 'Sprung 23 h 59 min ago',
      left: 'under a minute left',
    });
    expect(sprungClock(NOW - 24 * HOUR, NOW)).toEqual({ level: 'passed', since: 'Sprung 24 h ago', left: 'deadline passed' });
    expect(sprungClock(NOW - 3 * 24 * HOUR, NOW).left).toBe('deadline passed');
  });

  it('marks a battery low under the threshold, 3.3 V unless told otherwise, and never an unknown one', () => {
    expect(isLowBattery('3.29')).toBe(true);
    expect(isLowBattery('3.3')).toBe(false);
    expect(isLowBattery('3.5', 3.6)).toBe(true);
    expect(isLowBattery(null)).toBe(false);
    expect(volts('3.61')).toBe('3.61 V');
    expect(volts(null)).toBe('unknown');
  });

  it("writes times on the site's clock, with the year only when it is not the site's current year", () => {
    const siteTime = siteTimeFormatter('Pacific/Auckland', () => NOW);

    expect(siteTime(Date.parse('2026-03-01T01:02:00Z'))).toBe('1 Mar 14:02');
    expect(siteTime(Date.parse('2025-03-12T01:02:00Z'))).toBe('12 Mar 2025 14:02');
    // 31 Dec 2025 at 11:30 UTC is already 1 Jan 2026 at the site.
    expect(siteTime(Date.parse('2025-12-31T11:30:00Z'))).toBe('1 Jan 00:30');
    expect(siteTime(Date.parse('2026-09-27T01:00:00Z'))).toBe('27 Sep 14:00');
  });
});
