import { PasswordCheckQueue, PasswordChecksBusyError } from './password-check-queue.js';

/** A task that runs until the test lets it finish. */
function heldTask() {
  let finish!: () => void;
  let started = false;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return {
    run: async () => {
      started = true;
      await done;
      return 'done';
    },
    finish: () => finish(),
    started: () => started,
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe(PasswordCheckQueue.name, () => {
  it('runs at most the in-flight limit at once and starts the waiting ones in order as places free up', async () => {
    const sut = new PasswordCheckQueue({ inFlight: 2, queue: 2 });
    const tasks = [heldTask(), heldTask(), heldTask(), heldTask()];

    const results = tasks.map((task) => sut.run(task.run));
    await settle();
    expect(tasks.map((task) => task.started())).toEqual([true, true, false, false]);

    tasks[1]!.finish();
    await settle();
    expect(tasks.map((task) => task.started())).toEqual([true, true, true, false]);

    for (const task of tasks) task.finish();
    await expect(Promise.all(results)).resolves.toEqual(['done', 'done', 'done', 'done']);
  });

  it('refuses at once when every place is taken and the waiting line is full', async () => {
    const sut = new PasswordCheckQueue({ inFlight: 1, queue: 1 });
    const running = heldTask();
    const waiting = heldTask();
    const first = sut.run(running.run);
    const second = sut.run(waiting.run);

    await expect(sut.run(async () => 'never')).rejects.toBeInstanceOf(PasswordChecksBusyError);

    running.finish();
    waiting.finish();
    await expect(Promise.all([first, second])).resolves.toEqual(['done', 'done']);
    await expect(sut.run(async () => 'again')).resolves.toBe('again');
  });

  it('frees the place of a task that fails', async () => {
    const sut = new PasswordCheckQueue({ inFlight: 1, queue: 0 });

    await expect(sut.run(() => Promise.reject(new Error('argon2 failed')))).rejects.toThrow('argon2 failed');
    await expect(sut.run(async () => 'next')).resolves.toBe('next');
  });
});
