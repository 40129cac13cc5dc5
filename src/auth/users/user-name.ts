/** Drupal's limit on user names, in characters (code points, as the database column counts them). */
export const MAX_NAME_LENGTH = 60;

// What XML 1.0 cannot carry, as for the submitted members: C0 and C1 controls, U+FFFE, U+FFFF and
// unpaired surrogates.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

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
  return cut.replace(new RegExp(CONTROL_CHARACTERS.source, 'g'), (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
