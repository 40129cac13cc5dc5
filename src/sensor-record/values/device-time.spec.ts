import { parseDeviceTime, resolveDeviceTime } from './device-time.js';

const NZ = 'Pacific/Auckland';
const instant = (text: string, timeZone = NZ) => {
  const time = parseDeviceTime(text);
  if (!time) throw new Error(`${text} did not parse`);
  return resolveDeviceTime(time, timeZone).toISOString();
};

describe('parseDeviceTime', () => {
  it.each([
    '2020-07-22T06:11:11+12:00',
    '2020-07-22 06:11:11+1200',
    '2020-07-22T06:11+12',
    '2020-07-22T06:11:11.123456789Z',
    '2020-07-22T06:11:11z',
    '2020-07-22T06:11:11',
    '2024-02-29T00:00:00',
  ])('accepts %p', (text) => {
    expect(parseDeviceTime(text)).not.toBeNull();
  });

  it.each([
    '2021-02-30T10:00:00',
    '2023-02-29T10:00:00',
    '2021-13-01T10:00:00',
    '2021-01-01T24:00:00',
    '2021-01-01T23:61:00',
    '2021-01-01T23:59:60',
    '2021-01-01T10:00:00+24:00',
    '2021-01-01',
    '2021-01-01T10',
    '2021-01-01  10:00',
    '2021-01-01T10:00:00.Z',
    '20210101T100000Z',
    '1899-12-31T23:59:59Z',
    '9999-01-01T00:00:00Z',
    'yesterday',
  ])('refuses %p', (text) => {
    expect(parseDeviceTime(text)).toBeNull();
  });

  it('cuts fractions to whole seconds and reads offsets', () => {
    expect(parseDeviceTime('2020-07-22T06:11:11.999999999-03:30')).toEqual({
      year: 2020,
      month: 7,
      day: 22,
      hour: 6,
      minute: 11,
      second: 11,
      offsetMinutes: -210,
    });
  });
});

describe('resolveDeviceTime', () => {
  it('takes an offset or Z as given', () => {
    expect(instant('2020-07-22T06:11:11+12:00')).toBe('2020-07-21T18:11:11.000Z');
    expect(instant('2020-07-22T06:11:11.5Z')).toBe('2020-07-22T06:11:11.000Z');
    expect(instant('2020-07-22 06:11z')).toBe('2020-07-22T06:11:00.000Z');
    expect(instant('2020-07-22T06:11:11-0530')).toBe('2020-07-22T11:41:11.000Z');
  });

  it('reads a local time in New Zealand standard time (winter) and daylight time (summer)', () => {
    expect(instant('2020-07-22T06:11:11')).toBe('2020-07-21T18:11:11.000Z');
    expect(instant('2021-01-15 09:30')).toBe('2021-01-14T20:30:00.000Z');
  });

  it('moves a time skipped by the spring-forward gap forward by the gap', () => {
    expect(instant('2021-09-26T01:59:59')).toBe('2021-09-25T13:59:59.000Z');
    expect(instant('2021-09-26T02:00:00')).toBe('2021-09-25T14:00:00.000Z');
    expect(instant('2021-09-26T02:30:00')).toBe('2021-09-25T14:30:00.000Z');
    expect(instant('2021-09-26T03:00:00')).toBe('2021-09-25T14:00:00.000Z');
  });

  it('takes the earlier instant of a time repeated when the clocks go back', () => {
    expect(instant('2021-04-04T02:00:00')).toBe('2021-04-03T13:00:00.000Z');
    expect(instant('2021-04-04T02:30:00')).toBe('2021-04-03T13:30:00.000Z');
    expect(instant('2021-04-04T03:00:00')).toBe('2021-04-03T15:00:00.000Z');
  });

  it('uses the configured zone', () => {
    expect(instant('2021-03-14T02:30:00', 'America/New_York')).toBe('2021-03-14T07:30:00.000Z');
    expect(instant('2021-11-07T01:30:00', 'America/New_York')).toBe('2021-11-07T05:30:00.000Z');
    expect(instant('2021-07-01T12:00:00', 'UTC')).toBe('2021-07-01T12:00:00.000Z');
  });
});
