import { Injectable } from '@nestjs/common';
import { hash, verify } from '@node-rs/argon2';
import { randomUUID } from 'node:crypto';

// A real hash of a random value, verified against when the user does not exist, so that an unknown
// name costs the caller as much time as a wrong password does.
let dummyHash: Promise<string> | undefined;

/** Argon2id (the library default: 19 MiB, 2 passes, 1 lane — OWASP's minimum) in PHC string form. */
@Injectable()
export class PasswordHasher {
  hash(password: string): Promise<string> {
    return hash(password);
  }

  async verify(passwordHash: string | undefined, password: string): Promise<boolean> {
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
  }
}
