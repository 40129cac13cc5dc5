import { InvalidUserInputError } from './user-errors.js';

const MIN_PASSWORD_LENGTH = 10;

export const PASSWORD_RULE = `The password must be at least ${MIN_PASSWORD_LENGTH} characters long, not one character repeated, and not the user name.`;

/**
 * Refuses a trivially weak password when one is set (existing hashes are never re-checked). Length
 * counts characters, not bytes; the user name is compared without regard to case or surrounding spaces.
 */
export function assertAcceptablePassword(password: string, username: string): void {
  const characters = [...password];
  const weak =
    characters.length < MIN_PASSWORD_LENGTH ||
    new Set(characters).size === 1 ||
    password.trim().toLowerCase() === username.trim().toLowerCase();
  if (weak) throw new InvalidUserInputError(PASSWORD_RULE);
}
