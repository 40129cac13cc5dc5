/**
 * What XML 1.0 cannot carry: C0 and C1 controls, DEL, U+FFFE, U+FFFF and unpaired surrogates. No
 * submitted text and no user name may hold one, so every stored text renders as well-formed XML.
 */
export const CONTROL_CHARACTERS =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u001f\u007f-\u009f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** `text` with each character `characters` matches written as `\u000a`, so it fits one line of a message or a log. */
export function escapeCharacters(text: string, characters: RegExp): string {
  return text.replace(new RegExp(characters.source, 'g'), (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
