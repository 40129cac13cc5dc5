import type { SensorTransition } from '../sensor/projection/sensor-transition.js';
import type { SensorEntity } from '../sensor/sensor.entity.js';
import { planEpisodes } from './sprung-episodes.js';

const sensorM = { uid: 1, devId: 'trap-m' } as SensorEntity;
const sensorN = { uid: 1, devId: 'trap-n' } as SensorEntity;

let nid = 0;
const transition = (kind: SensorTransition['kind'], sensor: SensorEntity): SensorTransition => ({
  kind,
  sensor,
  nid: ++nid,
  at: new Date(nid * 60_000),
});

describe(planEpisodes.name, () => {
  it("closes the open episode of the table at a sensor's first reset, and pairs each later sprung with the reset after it", () => {
    const [reset1, sprung1, reset2, sprung2] = ['reset', 'sprung', 'reset', 'sprung'].map((kind) =>
      transition(kind as SensorTransition['kind'], sensorM),
    );

    const sut = planEpisodes([reset1!, sprung1!, reset2!, sprung2!]);

    expect(sut.leadingResets).toEqual([reset1]);
    expect(sut.opened).toEqual([
      { sprung: sprung1, reset: reset2 },
      { sprung: sprung2, reset: null },
    ]);
    expect([...sut.closedBy]).toEqual([[reset2, { sprung: sprung1, reset: reset2 }]]);
  });

  it('keeps each sensor apart, and a reset first for its sensor leads though another sensor was sprung before it', () => {
    const sprungM = transition('sprung', sensorM);
    const resetN = transition('reset', sensorN);
    const resetM = transition('reset', sensorM);

    const sut = planEpisodes([sprungM, transition('battery', sensorM), resetN, resetM]);

    expect(sut.leadingResets).toEqual([resetN]);
    expect(sut.opened).toEqual([{ sprung: sprungM, reset: resetM }]);
  });

  it('closes both of two sprung in a row at the next reset and names the later, as an UPDATE of every open episode would', () => {
    const [first, second, reset, late] = ['sprung', 'sprung', 'reset', 'reset'].map((kind) =>
      transition(kind as SensorTransition['kind'], sensorM),
    );

    const sut = planEpisodes([first!, second!, reset!, late!]);

    expect(sut.leadingResets).toEqual([]);
    expect(sut.opened).toEqual([
      { sprung: first, reset },
      { sprung: second, reset },
    ]);
    expect(sut.closedBy.get(reset!)).toBe(sut.opened[1]);
    // A reset with nothing left open closes nothing and names none.
    expect(sut.closedBy.has(late!)).toBe(false);
  });
});
