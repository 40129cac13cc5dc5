import { nameForLog } from './user-name.js';

/** The requested user name belongs to someone already. */
export class UsernameTakenError extends Error {
  constructor(readonly username: string) {
    super(`The user name "${nameForLog(username)}" is already taken.`);
  }
}

/** No user has the given name. */
export class UnknownUserError extends Error {
  constructor(readonly username: string) {
    super(`There is no user named "${nameForLog(username)}".`);
  }
}

/** A user name or password that cannot be stored. */
export class InvalidUserInputError extends Error {}
