import { notificationText, siteTime } from './notification-text.js';

const ZONE = 'Pacific/Auckland';
/** 26 Nov 2026, 14:00 in New Zealand (NZDT, UTC+13). */
const NOW = Date.parse('2026-11-26T01:00:00Z');

describe(notificationText.name, () => {
  const text = (event: Parameters<typeof notificationText>[0], at: string, more = {}) =>
    notificationText(event, { devId: 'trap-1', at: new Date(at), siteTimezone: ZONE, now: NOW, ...more });

  it("says the time alone for an event of the site's today", () => {
    expect(text('sprung', '2026-11-26T00:02:00Z')).toBe('Trap trap-1 sprung at 13:02 (NZDT)');
    // Just after midnight at the site, though the UTC date is the day before.
    expect(text('tilted', '2026-11-25T11:05:00Z')).toBe('Trap trap-1 tilt sensor says True at 00:05 (NZDT)');
  });

  it('adds the date for an event of another day at the site, and the year for one of another year', () => {
    expect(text('sprung', '2026-11-24T01:02:00Z')).toBe('Trap trap-1 sprung at 14:02 on 24 Nov (NZDT)');
    // 23:50 the evening before at the site: yesterday, though the UTC date is today's.
    expect(text('back', '2026-11-25T10:50:00Z')).toBe('Sensor trap-1 back: reported at 23:50 on 25 Nov (NZDT)');
    expect(text('battery_low', '2025-07-01T00:00:00Z', { value: 3.2, threshold: 3.3 })).toBe(
      'Sensor trap-1 battery low: 3.2 V, below 3.3 V (at 12:00 on 1 Jul 2025 (NZST))',
    );
  });

  it("always dates the 24-hour clock's start", () => {
    expect(text('sprung_reminder', '2026-11-26T01:00:00Z', { sprungAt: new Date('2026-11-25T13:00:00Z') })).toBe(
      'Reminder: trap trap-1 sprung 12 h ago (02:00 on 26 Nov (NZDT)) and not set yet; it must be checked within 24 h of being sprung',
    );
  });

  it('says how late a sprung trap was reported, and when its 24 hours are up or that they are', () => {
    // Sprung at 16:00 the day before at the site, reported 22 h later; then one sprung 26 h before.
    expect(text('sprung', '2026-11-25T03:00:00Z', { reportedAt: new Date(NOW) })).toBe(
      'Trap trap-1 sprung at 16:00 on 25 Nov (NZDT), reported 22 h late: the 24-hour deadline is 16:00 on 26 Nov (NZDT)',
    );
    expect(text('sprung', '2026-11-24T23:00:00Z', { reportedAt: new Date(NOW) })).toBe(
      'Trap trap-1 sprung at 12:00 on 25 Nov (NZDT), reported 1 d 2 h late: the 24-hour deadline passed at 12:00 on 26 Nov (NZDT)',
    );
  });

  it('says of a trap reported late together with its Set when it was set again, not where its deadline stands', () => {
    expect(text('sprung', '2026-11-24T23:00:00Z', { reportedAt: new Date(NOW), setAt: new Date('2026-11-25T07:15:00Z') })).toBe(
      'Trap trap-1 sprung at 12:00 on 25 Nov (NZDT), reported 1 d 2 h late; set again at 20:15 on 25 Nov (NZDT)',
    );
  });

  it('says by how much a trap set again after its 24 hours missed the deadline', () => {
    expect(text('reset', '2026-11-26T01:00:00Z', { sprungAt: new Date('2026-11-24T19:00:00Z') })).toBe(
      'Trap trap-1 set again at 14:00 (NZDT), after 1 d 6 h sprung, 6 h past the 24-hour deadline',
    );
    expect(text('sprung', '2026-11-24T01:00:00Z', { reportedAt: new Date(NOW), setAt: new Date('2026-11-25T07:00:00Z') })).toBe(
      'Trap trap-1 sprung at 14:00 on 24 Nov (NZDT), reported 2 d late; set again at 20:00 on 25 Nov (NZDT), 6 h past the 24-hour deadline',
    );
  });

  it('says when a silent sensor was last heard and its heartbeat period', () => {
    expect(text('silent', '2026-11-26T01:00:00Z', { lastHeardAt: new Date('2026-11-25T23:35:00Z'), heartbeatSeconds: 3600 })).toBe(
      'Sensor trap-1 silent: last heard at 12:35 (NZDT), nothing since within its heartbeat period of 1 h (noticed at 14:00 (NZDT))',
    );
  });

  it('says of a Set reported after a step of the 24-hour clock came due how late it was reported', () => {
    expect(text('reset', '2026-11-24T20:00:00Z', { sprungAt: new Date('2026-11-24T19:00:00Z'), reportedAt: new Date(NOW) })).toBe(
      'Trap trap-1 set again at 09:00 on 25 Nov (NZDT), after 1 h sprung, reported 1 d 5 h late',
    );
  });

  it('writes every month in three letters, September too', () => {
    expect(text('tilted', '2026-09-27T01:00:00Z')).toBe('Trap trap-1 tilt sensor says True at 14:00 on 27 Sep (NZDT)');
  });

  it("says when a sensor came back by when its record arrived, and the record's own time beside it when that differs", () => {
    expect(text('back', '2026-11-26T01:00:00Z', { reportedAt: new Date(NOW + 20_000) })).toBe(
      'Sensor trap-1 back: reported at 14:00 (NZDT)',
    );
    expect(text('back', '2026-11-24T21:10:00Z', { reportedAt: new Date(NOW) })).toBe(
      'Sensor trap-1 back: reported at 14:00 (NZDT), its record dated 10:10 on 25 Nov (NZDT)',
    );
  });

  it('says a duration in whole minutes, never rounded up past the 24-hour deadline', () => {
    // Reported 23 h 59 min 40 s after it was sprung: its deadline is still 20 s away.
    expect(text('sprung', '2026-11-25T01:00:20Z', { reportedAt: new Date(NOW) })).toBe(
      'Trap trap-1 sprung at 14:00 on 25 Nov (NZDT), reported 23 h 59 min late: the 24-hour deadline is 14:00 on 26 Nov (NZDT)',
    );
    expect(text('sprung_reminder', '2026-11-26T01:00:00Z', { sprungAt: new Date('2026-11-25T12:59:30Z') })).toBe(
      'Reminder: trap trap-1 sprung 12 h ago (01:59 on 26 Nov (NZDT)) and not set yet; it must be checked within 24 h of being sprung',
    );
    expect(text('reset', '2026-11-26T01:00:00Z', { sprungAt: new Date('2026-11-25T01:00:20Z') })).toBe(
      'Trap trap-1 set again at 14:00 (NZDT), after 23 h 59 min sprung',
    );
  });

  it('says a duration under a minute in whole seconds, not as 0 min', () => {
    expect(text('sprung_reminder', '2026-11-26T01:00:00Z', { sprungAt: new Date('2026-11-26T00:59:40Z') })).toBe(
      'Reminder: trap trap-1 sprung 20 s ago (13:59 on 26 Nov (NZDT)) and not set yet; it must be checked within 24 h of being sprung',
    );
    expect(text('reset', '2026-11-26T01:00:00Z', { sprungAt: new Date('2026-11-26T00:59:19.500Z') })).toBe(
      'Trap trap-1 set again at 14:00 (NZDT), after 40 s sprung',
    );
    expect(text('reset', '2026-11-26T01:00:00Z', { sprungAt: new Date('2026-11-26T00:59:00Z') })).toBe(
      'Trap trap-1 set again at 14:00 (NZDT), after 1 min sprung',
    );
  });
});

describe(siteTime.name, () => {
  it('answers in the zone it is given', () => {
    expect(siteTime(new Date('2026-11-24T01:02:00Z'), 'Europe/London', NOW)).toBe('01:02 on 24 Nov (GMT)');
    expect(siteTime(new Date('2026-11-26T00:30:00Z'), 'Europe/London', NOW)).toBe('00:30 (GMT)');
  });
});
