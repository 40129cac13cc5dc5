import { create } from 'xmlbuilder2';
import type { NormalizedObject, NormalizedValue } from './normalized-value.js';

type XMLBuilder = ReturnType<typeof create>;

// Written here because xmlbuilder2 puts no newline after its declaration; like Drupal's, it carries
// no encoding attribute.
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
 */
export function encodeXml(data: NormalizedObject): string {
  const document = create({ version: '1.0' });
  const response = document.ele('response');
  appendMembers(response, data);
  return `${XML_DECLARATION}\n${document.end({ headless: true, wellFormed: true })}\n`;
}

function appendMembers(parent: XMLBuilder, members: NormalizedObject): void {
  for (const [name, value] of Object.entries(members)) appendValue(parent, name, value);
}

function appendValue(parent: XMLBuilder, name: string, value: NormalizedValue): void {
  if (Array.isArray(value)) {
    if (value.length === 0) parent.ele(name);
    for (const item of value) appendValue(parent, name, item);
    return;
  }
  const element = parent.ele(name);
  if (value === null) return;
  if (typeof value === 'object') appendMembers(element, value);
  else if (typeof value === 'boolean') element.txt(value ? '1' : '0');
  else if (typeof value === 'number') element.txt(String(value));
  else appendText(element, value.replace(NOT_XML_CHAR, '\uFFFD'));
}

function appendText(element: XMLBuilder, text: string): void {
  const cdata = NEEDS_CDATA.test(text);
  text.split('\r').forEach((segment, index) => {
    // A literal CR would reach the reader as LF (XML end-of-line handling), so it goes as a reference,
    // as libxml writes it. xmlbuilder2 passes an existing reference through; other text never holds
    // `&`, since that goes to CDATA.
    if (index > 0) element.txt('&#13;');
    if (segment === '') return;
    if (cdata) appendCdata(element, segment);
    else element.txt(segment);
  });
}

// A CDATA section cannot hold `]]>`: end it between `]]` and `>` and open another, as libxml does.
function appendCdata(element: XMLBuilder, text: string): void {
  const pieces = text.split(']]>');
  pieces.forEach((piece, index) => {
    const head = index === 0 ? '' : '>';
    const tail = index === pieces.length - 1 ? '' : ']]';
    element.dat(`${head}${piece}${tail}`);
  });
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
