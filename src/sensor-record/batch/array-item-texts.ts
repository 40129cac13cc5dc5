const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/** An item of a JSON array: its text, and how deep it nests objects and arrays. */
export interface ArrayItem {
  text: string;
  /** Containers inside containers, the item itself level 1 when it is one; 0 for a string, number, boolean or null. */
  depth: number;
}

/**
 * Each item of a JSON array as it stands in `json`: its text, from its first character to its last
 * (the whitespace between items left out), which a batch's record keeps of its report
 * (docs/interface.md#batches-of-reports), and its depth, read from the same brackets rather than by a
 * second walk of the parsed item (docs/benchmark.md#where-the-time-goes). `json` must be a document
 * JSON.parse has read as an array; only its strings and brackets are looked at. Cut from the text
 * rather than written again with JSON.stringify, which cost a batch about three times as much per report.
 */
export function arrayItems(json: string): ArrayItem[] {
  const items: ArrayItem[] = [];
  let depth = 0;
  let deepest = 1;
  let start = 0;
  const cut = (end: number) => {
    items.push({ text: json.slice(start, end).trim(), depth: deepest - 1 });
    deepest = 1;
  };
  for (let at = 0; at < json.length; at++) {
    const code = json.charCodeAt(at);
    if (code === QUOTE) {
      at = closingQuote(json, at);
    } else if (code === OPEN_BRACKET || code === OPEN_BRACE) {
      if (++depth === 1) start = at + 1;
      else if (depth > deepest) deepest = depth;
    } else if (code === CLOSE_BRACKET || code === CLOSE_BRACE) {
      if (--depth === 0) {
        if (json.slice(start, at).trim() !== '' || items.length > 0) cut(at);
        return items;
      }
    } else if (code === COMMA && depth === 1) {
      cut(at);
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
