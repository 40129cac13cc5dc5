import { ExactNumber } from '../submission/exact-numbers.js';

/** What a submitted decimal member reads as: its stored text, or why it cannot be stored. */
export type DecimalReading = { kind: 'decimal'; text: string } | { kind: 'not-a-number' } | { kind: 'out-of-range' };

export const DECIMAL_LIMIT = 9_999_999;
const SCALE = 3;
const DECIMAL_TEXT = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;
/** A text that is its own stored form: no sign but `-`, no leading or trailing zero, at most SCALE places. */
const SHORTEST_TEXT = /^-?(?:0|[1-9]\d{0,6})(?:\.\d{0,2}[1-9])?$/;

/**
 * Reads a JSON number (an ExactNumber by its digits as written) or numeric string as a DECIMAL(10,3)
 * value: rounded to 3 places half away from zero on the decimal digits (float arithmetic would round
 * 2.0005 down), in its shortest form (`"21"`, `"3.6"`, `"-0.5"`).
 */
export function readDecimal(raw: unknown): DecimalReading {
  const given = raw instanceof ExactNumber ? raw.text : raw;
  const text =
    typeof given === 'number' ? (Number.isFinite(given) ? String(given) : undefined) : typeof given === 'string' ? given : undefined;
  // Most values devices send (3.6, -71, "7.25") are stored as they are written: no digits to shift or round.
  if (text !== undefined && SHORTEST_TEXT.test(text) && text !== '-0' && Math.abs(Number(text)) <= DECIMAL_LIMIT) {
    return { kind: 'decimal', text };
  }
  const match = text === undefined ? null : DECIMAL_TEXT.exec(text);
  if (!match || (match[2] === '' && !match[3])) return { kind: 'not-a-number' };
  // Beyond this the value is out of range, and shifting its digits could build an enormous string.
  if (!(Math.abs(Number(text)) < 1e8)) return { kind: 'out-of-range' };
  const [, sign, integer = '', fraction = '', exponent = '0'] = match;
  const point = integer.length + Number(exponent);
  // The range is the value's as given (docs/interface.md, Decimals): 9999999.0004 is beyond it, though it rounds to 9999999.
  if (beyondLimit(integer + fraction, point)) return { kind: 'out-of-range' };
  const scaled = scaledInteger(integer + fraction, point);
  return { kind: 'decimal', text: formatScaled(sign === '-' && scaled !== 0n ? -scaled : scaled) };
}

/** The shortest text of a stored DECIMAL(10,3): drivers hand back `"21.000"` (MySQL) or `21` (SQLite). */
export function shortestDecimal(stored: string | number | null): string | null {
  if (stored === null) return null;
  const reading = readDecimal(stored);
  if (reading.kind !== 'decimal') throw new Error(`Stored value ${String(stored)} is not a DECIMAL(10,3)`);
  return reading.text;
}

/** Whether `0.<digits> × 10^point`, unrounded, is above DECIMAL_LIMIT. */
function beyondLimit(allDigits: string, point: number): boolean {
  const firstSignificant = allDigits.search(/[1-9]/);
  if (firstSignificant < 0 || point - firstSignificant <= 0) return false;
  const whole = BigInt(allDigits.slice(0, point).padEnd(point, '0'));
  return whole > BigInt(DECIMAL_LIMIT) || (whole === BigInt(DECIMAL_LIMIT) && /[1-9]/.test(allDigits.slice(point)));
}

/** `0.<digits> × 10^point`, rounded half away from zero to SCALE places, as an integer of thousandths. */
function scaledInteger(allDigits: string, point: number): bigint {
  const firstSignificant = allDigits.search(/[1-9]/);
  if (firstSignificant < 0) return 0n;
  const digits = allDigits.slice(firstSignificant);
  const position = point - firstSignificant;
  if (position < -SCALE) return 0n;
  const shifted = position >= 0 ? digits.padEnd(position, '0') : '0'.repeat(-position) + digits;
  const integerDigits = Math.max(position, 0);
  const kept = shifted.slice(0, integerDigits + SCALE).padEnd(integerDigits + SCALE, '0');
  const roundUp = (shifted[integerDigits + SCALE] ?? '0') >= '5';
  return BigInt(kept || '0') + (roundUp ? 1n : 0n);
}

function formatScaled(scaled: bigint): string {
  const negative = scaled < 0n;
  const digits = (negative ? -scaled : scaled).toString().padStart(SCALE + 1, '0');
  const fraction = digits.slice(-SCALE).replace(/0+$/, '');
  return `${negative ? '-' : ''}${digits.slice(0, -SCALE)}${fraction ? `.${fraction}` : ''}`;
}
