import { formatInTimeZone } from 'date-fns-tz';
import fc from 'fast-check';
import { formatUtcTimestamp } from './timestamp-format.js';

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
