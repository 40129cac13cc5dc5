import { DeliveredMarks } from './delivered-marks.js';
import type { NotificationClaims } from './notification-claims.js';

describe(DeliveredMarks.name, () => {
  const inAMinute = () => Date.now() + 60_000;

  function claimsMarking(answers: Array<Error | null>) {
    const marked: number[][] = [];
    const noted: number[][] = [];
    const claims = {
      delivered: (ids: number[], _now: Date, episodes: number[] = []) => {
        marked.push(ids);
        noted.push(episodes);
        const answer = answers.shift() ?? null;
        return answer ? Promise.reject(answer) : Promise.resolve(ids.length);
      },
    } as unknown as NotificationClaims;
    return { claims, marked, noted };
  }

  it('marks the notifications delivered while one mark is under way together, in the next', async () => {
    const { claims, marked } = claimsMarking([]);
    const sut = new DeliveredMarks(claims, Date.now);

    await Promise.all([sut.mark(1, null, inAMinute()), sut.mark(2, null, inAMinute()), sut.mark(3, null, inAMinute())]);

    expect(marked).toEqual([[1], [2, 3]]);
  });

  it('tries a mark again after it failed, while the claim lasts, rather than leave the notification to be sent again', async () => {
    const { claims, marked } = claimsMarking([new Error('a pooled database connection'), null]);
    const sut = new DeliveredMarks(claims, Date.now);

    await sut.mark(7, null, inAMinute());

    expect(marked).toEqual([[7], [7]]);
  });

  it('gives a mark up once the claim is about to run out: another instance may send the notification then', async () => {
    const { claims, marked } = claimsMarking([new Error('a pooled database connection'), null]);
    const sut = new DeliveredMarks(claims, Date.now);

    await expect(sut.mark(7, null, Date.now() + 500)).rejects.toThrow('a pooled database connection');
    expect(marked).toEqual([[7]]);
  });

  it("notes an episode's first delivery once, with the mark: a later notification of it (its reset) costs no statement", async () => {
    const { claims, noted } = claimsMarking([]);
    const sut = new DeliveredMarks(claims, Date.now);

    await sut.mark(1, 5, inAMinute());
    await sut.mark(2, 5, inAMinute());
    await sut.mark(3, 6, inAMinute());
    await sut.mark(4, null, inAMinute());

    expect(noted).toEqual([[5], [], [6], []]);
  });

  it("tries an episode's note again with the mark after a failure, and counts it noted only once it went through", async () => {
    const { claims, marked, noted } = claimsMarking([new Error('a pooled database connection'), null]);
    const sut = new DeliveredMarks(claims, Date.now);

    await sut.mark(1, 5, inAMinute());
    await sut.mark(2, 5, inAMinute());

    expect(marked).toEqual([[1], [1], [2]]);
    expect(noted).toEqual([[5], [5], []]);
  });
});
