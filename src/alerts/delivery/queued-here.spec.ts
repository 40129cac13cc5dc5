import { QueuedHere } from './queued-here.js';

describe(QueuedHere.name, () => {
  it('says another is waiting after each send of a queue but the last committed here', () => {
    const queued = new QueuedHere();
    for (let index = 0; index < 3; index++) queued.committed('alert 1: trap-a');

    expect([queued.sent('alert 1: trap-a'), queued.sent('alert 1: trap-a'), queued.sent('alert 1: trap-a')]).toEqual([true, true, false]);
  });

  it('keeps each queue to its own count', () => {
    const queued = new QueuedHere();
    queued.committed('alert 1: trap-a');
    queued.committed('alert 1: trap-a');
    queued.committed('alert 1: trap-b');

    expect(queued.sent('alert 1: trap-b')).toBe(false);
    expect(queued.sent('alert 1: trap-a')).toBe(true);
  });

  it('says nothing is waiting for a queue nothing was committed to here (another instance wrote it)', () => {
    expect(new QueuedHere().sent('alert 2: trap-c')).toBe(false);
  });

  it('counts again from nothing once a queue has been emptied', () => {
    const queued = new QueuedHere();
    queued.committed('alert 1: trap-a');
    queued.sent('alert 1: trap-a');
    queued.sent('alert 1: trap-a');
    queued.committed('alert 1: trap-a');
    queued.committed('alert 1: trap-a');

    expect(queued.sent('alert 1: trap-a')).toBe(true);
  });
});
