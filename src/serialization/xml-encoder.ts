import type { NormalizedObject, NormalizedValue } from './normalized-value.js';

// Like Drupal's, the declaration carries no encoding attribute.
const XML_DECLARATION = '<?xml version="1.0"?>';

const NEEDS_CDATA = /[<>&]/;

// Everything outside XML 1.0's Char production (C0 controls but tab/LF/CR, lone surrogates,
// U+FFFE/U+FFFF). Validation refuses these upstream; replacing them keeps any document well-formed.
const NOT_XML_CHAR =
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Symfony's XmlEncoder as Drupal uses it: a `<response>` root, one element per list item named by
 * its field, 1/0 for booleans, empty elements for null and empty lists, and text containing
 * `<`, `>` or `&` wrapped whole in CDATA.
 *
 * Written as text directly: element names are the normalizers' own field names, and text is either
 * free of markup characters or goes whole into CDATA, so nothing is left to escape. A document
 * builder (a node tree per record, every name and character checked) made the xml rendering several
 * times as dear as the json one, which the records feed pays ten thousand times a page.
 */
export function encodeXml(data: NormalizedObject): string {
  return `${XML_DECLARATION}\n${element('response', membersOf(data))}\n`;
}

function membersOf(members: NormalizedObject): string {
  let content = '';
  for (const [name, value] of Object.entries(members)) content += valueOf(name, value);
  return content;
}

function valueOf(name: string, value: NormalizedValue): string {
  if (Array.isArray(value)) return value.length === 0 ? element(name, '') : value.map((item) => valueOf(name, item)).join('');
  if (value === null) return element(name, '');
  if (typeof value === 'object') return element(name, membersOf(value));
  if (typeof value === 'boolean') return element(name, value ? '1' : '0');
  if (typeof value === 'number') return element(name, String(value));
  return element(name, textOf(value.replace(NOT_XML_CHAR, '\uFFFD')));
}

/** An element, self-closed when it holds nothing. */
function element(name: string, content: string): string {
  return content === '' ? `<${name}/>` : `<${name}>${content}</${name}>`;
}

function textOf(text: string): string {
  const cdata = NEEDS_CDATA.test(text);
  // A literal CR would reach the reader as LF (XML end-of-line handling), so it goes as a reference,
  // as libxml writes it (outside CDATA, where a reference is read as one).
  return text
    .split('\r')
    .map((segment) => (segment === '' || !cdata ? segment : cdataOf(segment)))
    .join('&#13;');
}

// A CDATA section cannot hold `]]>`: end it between `]]` and `>` and open another, as libxml does.
function cdataOf(text: string): string {
  return `<![CDATA[${text.split(']]>').join(']]]]><![CDATA[>')}]]>`;
}

const RESPONSE_HEAD = `${XML_DECLARATION}\n<response>`;
const RESPONSE_TAIL = '</response>\n';

/**
 * What stands between `<response>` and `</response>` of an encoded document: a record's elements,
 * byte for byte, to stand inside a larger document (the records feed).
 */
export function xmlResponseContent(document: string): string {
  if (!document.startsWith(RESPONSE_HEAD) || !document.endsWith(RESPONSE_TAIL)) throw new Error('Not a <response> document');
  return document.slice(RESPONSE_HEAD.length, -RESPONSE_TAIL.length);
}

/** An encoded document without its closing `</response>` and newline, for more members to follow. */
export function xmlResponseOpening(document: string): string {
  if (!document.endsWith(RESPONSE_TAIL)) throw new Error('Not a <response> document');
  return document.slice(0, -RESPONSE_TAIL.length);
}

export const XML_RESPONSE_CLOSING = RESPONSE_TAIL;
