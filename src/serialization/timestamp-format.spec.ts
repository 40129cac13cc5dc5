import { formatInTimeZone } from 'date-fns-tz';
import fc from 'fast-check';
import { formatSiteDate, formatUtcTimestamp } from './timestamp-format.js';

describe(formatUtcTimestamp.name, () => {
  it('writes what the RFC 3339 pattern in UTC writes, for any instant with a four-digit year', () => {
    const instants = fc.date({ min: new Date('1000-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true });

    fc.assert(
      fc.property(instants, (instant) => {
        expect(formatUtcTimestamp(instant)).toBe(formatInTimeZone(instant, 'UTC', "yyyy-MM-dd'T'HH:mm:ssxxx"));
      }),
      { numRuns: 2000 },
    );
  });

  it('writes a zero offset as +00:00, never Z', () => {
    expect(formatUtcTimestamp(new Date('2026-11-21T04:35:00.999Z'))).toBe('2026-11-21T04:35:00+00:00');
  });
});

describe(formatSiteDate.name, () => {
  const zones = [
    'Pacific/Auckland',
    'Pacific/Chatham',
    'Australia/Lord_Howe',
    'Asia/Kathmandu',
    'America/St_Johns',
    'Europe/London',
    'UTC',
  ];

  it("writes what date-fns-tz's RFC 3339 pattern writes in the zone, for any instant a device time can name", () => {
    const instants = fc.date({ min: new Date('1899-12-31T00:00:00Z'), max: new Date('9998-12-31T23:59:59.999Z'), noInvalidDate: true });

    fc.assert(
      fc.property(instants, fc.constantFrom(...zones), (instant, zone) => {
        expect(formatSiteDate(instant, zone)).toBe(formatInTimeZone(instant, zone, "yyyy-MM-dd'T'HH:mm:ssxxx"));
      }),
      { numRuns: 5000 },
    );
  });

  it.each([
    ['2021-09-25T13:59:59Z', '2021-09-26T01:59:59+12:00'],
    ['2021-09-25T14:00:00Z', '2021-09-26T03:00:00+13:00'],
    ['2021-04-03T13:59:59Z', '2021-04-04T02:59:59+13:00'],
    ['2021-04-03T14:00:00Z', '2021-04-04T02:00:00+12:00'],
    ['1868-11-01T12:00:00Z', formatInTimeZone(new Date('1868-11-01T12:00:00Z'), 'Pacific/Auckland', "yyyy-MM-dd'T'HH:mm:ssxxx")],
  ])('writes %s in Pacific/Auckland across daylight saving and before standard time as %s', (iso, expected) => {
    expect(formatSiteDate(new Date(iso), 'Pacific/Auckland')).toBe(expected);
  });
});
