import { overdueCutoff, sensorState } from './sensor-state.js';

const due = (iso: string) => ({ heartbeatPeriod: 3600, heartbeatDue: new Date(iso) });

describe(sensorState.name, () => {
  const cutoff = overdueCutoff(Date.parse('2026-01-01T01:15:00.400Z'), 900);

  it('rounds the cutoff up to the whole second, as dues are', () => {
    expect(cutoff).toEqual(new Date('2026-01-01T01:00:01Z'));
  });

  it.each([
    ['2026-01-01T01:00:00Z', 'overdue'],
    ['2026-01-01T01:00:01Z', 'ok'],
  ])('judges a sensor due at %s %s once the grace has passed', (iso, state) => {
    expect(sensorState(due(iso), cutoff)).toBe(state);
  });

  it('takes -1 as no heartbeat and 0 as expired, whenever they were due', () => {
    expect(sensorState({ heartbeatPeriod: -1, heartbeatDue: null }, cutoff)).toBe('no_heartbeat');
    expect(sensorState({ heartbeatPeriod: 0, heartbeatDue: null }, cutoff)).toBe('expired');
  });
});
