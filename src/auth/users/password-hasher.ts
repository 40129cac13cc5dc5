import { hash, verify } from '@node-rs/argon2';
import { randomUUID } from 'node:crypto';
import { PasswordCheckQueue } from './password-check-queue.js';

// A real hash of a random value, verified against when the user does not exist, so that an unknown
// name costs the caller as much time as a wrong password does.
let dummyHash: Promise<string> | undefined;

/**
 * Argon2id (the library default: 19 MiB, 2 passes, 1 lane — OWASP's minimum) in PHC string form.
 * Every computation waits its turn in `checks` (provided by AuthModule from the configuration).
 */
export class PasswordHasher {
  constructor(readonly checks: PasswordCheckQueue = new PasswordCheckQueue()) {}

  hash(password: string): Promise<string> {
    return this.checks.run(() => hash(password));
  }

  /** True when the password matches; an absent hash is checked against a dummy one and is false. */
  verify(passwordHash: string | undefined, password: string): Promise<boolean> {
    return this.checks.run(async () => {
      if (passwordHash === undefined) {
        dummyHash ??= hash(randomUUID());
        await verify(await dummyHash, password);
        return false;
      }
      try {
        return await verify(passwordHash, password);
      } catch {
        return false;
      }
    });
  }
}
