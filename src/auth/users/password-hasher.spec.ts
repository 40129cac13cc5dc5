import { PasswordCheckQueue, PasswordChecksBusyError } from './password-check-queue.js';
import { PasswordHasher } from './password-hasher.js';

describe(PasswordHasher.name, () => {
  it('verifies the password a hash was made from, and no other', async () => {
    const sut = new PasswordHasher();
    const stored = await sut.hash('a long passphrase');

    expect(stored).toMatch(/^\$argon2id\$/);
    await expect(sut.verify(stored, 'a long passphrase')).resolves.toBe(true);
    await expect(sut.verify(stored, 'another passphrase')).resolves.toBe(false);
    await expect(sut.verify('not a hash', 'a long passphrase')).resolves.toBe(false);
  });

  it('answers false for an absent hash', async () => {
    await expect(new PasswordHasher().verify(undefined, 'anything')).resolves.toBe(false);
  });

  it('waits its turn in the queue, for an unknown user as for a known one', async () => {
    const queue = new PasswordCheckQueue({ inFlight: 1, queue: 0 });
    const sut = new PasswordHasher(queue);
    let release!: () => void;
    const held = queue.run(() => new Promise<void>((resolve) => (release = resolve)));

    await expect(sut.verify(undefined, 'anything')).rejects.toBeInstanceOf(PasswordChecksBusyError);
    await expect(sut.hash('anything')).rejects.toBeInstanceOf(PasswordChecksBusyError);

    release();
    await held;
    await expect(sut.verify(undefined, 'anything')).resolves.toBe(false);
  });
});
