import { CONTROL_CHARACTERS, escapeCharacters } from '../../common/text/control-characters.js';

/** Drupal's limit on user names, in characters (code points, as the database column counts them). */
export const MAX_NAME_LENGTH = 60;

/** A user name fit to be looked up or stored: 1 to 60 characters, none of them a control character. */
export function isValidName(name: string): boolean {
  const length = [...name].length;
  return length > 0 && length <= MAX_NAME_LENGTH && !CONTROL_CHARACTERS.test(name);
}

/**
 * Whether two names are the same name: letter case aside, exactly equal. The database's own
 * comparison is looser on MySQL (utf8mb4_unicode_ci also equates fullwidth and plain letters,
 * ignores trailing spaces and some controls), so a row it finds is only the candidate.
 */
export function isSameName(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/** A name as it may appear in a log line or message: at most 60 characters, controls shown escaped. */
export function nameForLog(name: string): string {
  const cut = [...name].slice(0, MAX_NAME_LENGTH).join('');
  return escapeCharacters(cut, CONTROL_CHARACTERS);
}
