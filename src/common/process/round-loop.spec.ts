import { jest } from '@jest/globals';
import { RoundLoop, type RoundLoopOptions } from './round-loop.js';

/** Rounds that each wait until the test ends them: `end(i, value)`, or `fail(i, error)`. */
function heldRounds() {
  const rounds: Array<{ resolve: (value: number) => void; reject: (error: Error) => void }> = [];
  const round = () => new Promise<number>((resolve, reject) => rounds.push({ resolve, reject }));
  return {
    round,
    begun: () => rounds.length,
    end: async (index: number, value = index) => {
      rounds[index]!.resolve(value);
      await settled();
    },
    fail: async (index: number, error: Error) => {
      rounds[index]!.reject(error);
      await settled();
    },
  };
}

/** Lets every promise that can settle do so (setImmediate is left real; no fake timer moves). */
const settled = () => new Promise<void>((resolve) => setImmediate(resolve));

describe(RoundLoop.name, () => {
  let failures: unknown[];
  const options = (whileRunning: RoundLoopOptions['whileRunning']): RoundLoopOptions => ({
    whileRunning,
    failed: (error) => failures.push(error),
  });

  beforeEach(() => {
    jest.useFakeTimers({ doNotFake: ['setImmediate'] });
    failures = [];
  });

  afterEach(() => {
    jest.useRealTimers();
  });

  it('begins a round at once when asked', () => {
    const rounds = heldRounds();
    const sut = new RoundLoop(rounds.round, options('join'));

    sut.wake();

    expect(rounds.begun()).toBe(1);
  });

  it('joining: an ask while a round runs answers with that round, and begins none', async () => {
    const rounds = heldRounds();
    const sut = new RoundLoop(rounds.round, options('join'));

    const first = sut.run();
    const second = sut.run();
    sut.wake();
    await rounds.end(0, 7);

    await expect(first).resolves.toBe(7);
    await expect(second).resolves.toBe(7);
    expect(rounds.begun()).toBe(1);
  });

  it('once more: asks while a round runs begin one round after it, and are answered by that one', async () => {
    const rounds = heldRounds();
    const sut = new RoundLoop(rounds.round, options('once-more'));

    const first = sut.run();
    const asked = sut.run();
    sut.wake();
    sut.wake();
    expect(rounds.begun()).toBe(1);
    await rounds.end(0, 1);
    expect(rounds.begun()).toBe(2);
    await rounds.end(1, 2);

    await expect(first).resolves.toBe(1);
    await expect(asked).resolves.toBe(2);
    expect(rounds.begun()).toBe(2);
  });

  it('once more: a round may ask for the next itself (it left work)', async () => {
    const rounds = heldRounds();
    let left = 2;
    const sut: RoundLoop<number> = new RoundLoop(async () => {
      const value = await rounds.round();
      if (--left > 0) sut.wake();
      return value;
    }, options('once-more'));

    sut.wake();
    await rounds.end(0);
    await rounds.end(1);
    await settled();

    expect(rounds.begun()).toBe(2);
  });

  it('runs on the schedule: the first round after firstAfterMs, then every everyMs', () => {
    const rounds = heldRounds();
    const sut = new RoundLoop(rounds.round, options('once-more'));

    sut.start(300_000, 60_000);
    jest.advanceTimersByTime(59_999);
    expect(rounds.begun()).toBe(0);
    jest.advanceTimersByTime(1);
    expect(rounds.begun()).toBe(1);
    void rounds.end(0);
    jest.advanceTimersByTime(299_999);
    expect(rounds.begun()).toBe(1);
  });

  it('joining: a scheduled time that comes while a round runs passes without one', async () => {
    const rounds = heldRounds();
    const sut = new RoundLoop(rounds.round, options('join'));

    sut.start(1000);
    jest.advanceTimersByTime(1000);
    jest.advanceTimersByTime(1000);
    await rounds.end(0);

    expect(rounds.begun()).toBe(1);
    jest.advanceTimersByTime(1000);
    expect(rounds.begun()).toBe(2);
  });

  it('once more: a scheduled time that comes while a round runs is kept for after it', async () => {
    const rounds = heldRounds();
    const sut = new RoundLoop(rounds.round, options('once-more'));

    sut.start(1000);
    jest.advanceTimersByTime(2000);
    expect(rounds.begun()).toBe(1);
    await rounds.end(0);

    expect(rounds.begun()).toBe(2);
  });

  it('wakeIn runs one round more after its delay, in place of the one asked for before', () => {
    const rounds = heldRounds();
    const sut = new RoundLoop(rounds.round, options('join'));

    sut.wakeIn(5000);
    sut.wakeIn(8000);
    jest.advanceTimersByTime(7999);
    expect(rounds.begun()).toBe(0);
    jest.advanceTimersByTime(1);
    expect(rounds.begun()).toBe(1);
  });

  it('wakeIn(undefined) takes back the round asked for', () => {
    const rounds = heldRounds();
    const sut = new RoundLoop(rounds.round, options('join'));

    sut.wakeIn(5000);
    sut.wakeIn(undefined);
    jest.advanceTimersByTime(60_000);

    expect(rounds.begun()).toBe(0);
  });

  it('tells a failed round to `failed` and to those who wait for it; the next ask runs a round all the same', async () => {
    const rounds = heldRounds();
    const sut = new RoundLoop(rounds.round, options('join'));
    const lost = new Error('Connection lost');

    const waiting = sut.run();
    await rounds.fail(0, lost);

    await expect(waiting).rejects.toBe(lost);
    expect(failures).toEqual([lost]);
    sut.wake();
    expect(rounds.begun()).toBe(2);
  });

  it('stop waits for the round in flight, and no round begins after it: scheduled, asked or asked for before', async () => {
    const rounds = heldRounds();
    const sut = new RoundLoop(rounds.round, options('once-more'));
    sut.start(1000);
    sut.wakeIn(1500);
    sut.wake();
    const queued = expect(sut.run()).rejects.toThrow('The rounds have stopped');
    let stopped = false;

    const stopping = sut.stop().then(() => (stopped = true));
    await settled();
    expect(stopped).toBe(false);
    expect(sut.stopping).toBe(true);
    await rounds.end(0);
    await stopping;
    sut.wake();
    jest.advanceTimersByTime(60_000);

    expect(rounds.begun()).toBe(1);
    await queued;
    await expect(sut.run()).rejects.toThrow('The rounds have stopped');
  });
});
