const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * The text of each item of a JSON array as it stands in `json`, from its first character to its last
 * (the whitespace between items left out): what a batch's record keeps of its report
 * (docs/interface.md#batches-of-reports). `json` must be a document JSON.parse has read as an array;
 * only its strings and brackets are looked at. Cut from the text rather than written again with
 * JSON.stringify, which cost a batch about three times as much per report
 * (docs/benchmark.md#where-the-time-goes).
 */
export function arrayItemTexts(json: string): string[] {
  const items: string[] = [];
  let depth = 0;
  let start = 0;
  for (let at = 0; at < json.length; at++) {
    const code = json.charCodeAt(at);
    if (code === QUOTE) {
      at = closingQuote(json, at);
    } else if (code === OPEN_BRACKET || code === OPEN_BRACE) {
      if (++depth === 1) start = at + 1;
    } else if (code === CLOSE_BRACKET || code === CLOSE_BRACE) {
      if (--depth === 0) {
        const last = json.slice(start, at).trim();
        if (last !== '' || items.length > 0) items.push(last);
        return items;
      }
    } else if (code === COMMA && depth === 1) {
      items.push(json.slice(start, at).trim());
      start = at + 1;
    }
  }
  throw new Error('Not a JSON array');
}

/** Where the string opened at `opening` closes: the next quote not escaped by an odd number of backslashes. */
function closingQuote(json: string, opening: number): number {
  for (let at = opening; ;) {
    at = json.indexOf('"', at + 1);
    if (at < 0) throw new Error('Not a JSON array');
    let backslashes = 0;
    while (json.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
}
