import { randomUUID } from 'node:crypto';

/**
 * A JSON number whose digits no double holds (`3.29999999999999999999999`, `9999999.00000000000000001`,
 * `1e400`), kept as written: JSON.parse would round it to the nearest double, and the decimal and
 * integer rules read a value as given, on its decimal digits (docs/interface.md#validation).
 */
export class ExactNumber {
  constructor(readonly text: string) {}

  toString(): string {
    return this.text;
  }
}

/**
 * Whether the text may hold such a number: 16 digits and points in a row (a double holds every number
 * of 15 significant digits), or an exponent of three digits. Strings may match too; most bodies do not,
 * and are read by JSON.parse alone (docs/benchmark.md#choices-made-by-measurement).
 */
const MAYBE_INEXACT = /[\d.]{16}|[eE][+-]?\d{3}/;
/** A JSON string, passed over whole, or a JSON number. */
const STRING_OR_NUMBER = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
const QUOTE = 0x22;

/**
 * JSON.parse, except that a number no double holds is an ExactNumber. Such a number is written as a
 * string holding a mark no body can know (a random UUID of this call) and its index, read back by the
 * reviver; the text is JSON.parse's first, so its syntax errors are JSON.parse's.
 */
export function parseWithExactNumbers(text: string): unknown {
  const document: unknown = JSON.parse(text);
  if (!MAYBE_INEXACT.test(text)) return document;
  const inexact: string[] = [];
  const mark = randomUUID();
  const marked = text.replace(STRING_OR_NUMBER, (token) => {
    if (token.charCodeAt(0) === QUOTE || holdsExactly(token)) return token;
    inexact.push(token);
    return `"${mark}${inexact.length - 1}"`;
  });
  if (inexact.length === 0) return document;
  return JSON.parse(marked, (_key, value: unknown) =>
    typeof value === 'string' && value.startsWith(mark) ? new ExactNumber(inexact[Number(value.slice(mark.length))]!) : value,
  );
}

/** Whether the nearest double is the number itself: its shortest text has the same decimal value. */
function holdsExactly(token: string): boolean {
  const double = Number(token);
  return Number.isFinite(double) && decimalValue(String(double)) === decimalValue(token);
}

/** A number's text as sign, significant digits and the point's place: equal for equal values (`2.50` and `25e-1`). */
function decimalValue(text: string): string {
  const [, sign, integer = '', fraction = '', exponent = '0'] = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text)!;
  const digits = integer + fraction;
  const first = digits.search(/[1-9]/);
  if (first < 0) return '0';
  return `${sign}${digits.slice(first).replace(/0+$/, '')}e${integer.length - first + Number(exponent)}`;
}
