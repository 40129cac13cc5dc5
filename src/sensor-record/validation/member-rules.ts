import type { SchemaObject } from '@nestjs/swagger';
import { CONTROL_CHARACTERS } from '../../common/text/control-characters.js';
import { ExactNumber } from '../submission/exact-numbers.js';
import { readDecimal, DECIMAL_LIMIT } from '../values/decimal.js';
import { DEVICE_TIME_MAX_LENGTH, SubmittedTime } from '../values/device-time.js';
import { violationMessages as messages } from './violation-messages.js';

/**
 * How one member is checked after unwrapping, how an accepted spelling becomes the stored value, and
 * how the OpenAPI description shows the value: the checks and the description come from the same
 * numbers, lists and patterns.
 */
export interface MemberRule {
  /** Applied to a present value before validation; what it does not recognise it returns unchanged. */
  coerce?: (value: unknown) => unknown;
  /** The value's first violation, or undefined when it passes. */
  check: MemberCheck;
  /** The JSON schema of the bare value (the wrapped shapes are added by the member's decorator). */
  schema: SchemaObject;
}

/** The first violation of a value, or undefined. */
type MemberCheck = (value: unknown) => string | undefined;

export const INT32_MIN = -2_147_483_648;
export const INT32_MAX = 2_147_483_647;
const INTEGER_TEXT = /^[+-]?\d+$/;
// Either case on input; stored upper-case.
const MAC_ADDRESS = /^[0-9A-Fa-f]{2}(?::[0-9A-Fa-f]{2}){5}$/;

type Check = [test: (value: unknown) => boolean, message: string];

/** Checks run in order; the first that fails names the violation. */
function inOrder(...checks: Check[]): MemberCheck {
  return (value) => {
    for (const [test, message] of checks) if (!test(value)) return message;
    return undefined;
  };
}

const notBlank: Check = [(value) => value !== '', messages.notBlank];

export function text(limit: number, options: { notBlank?: boolean } = {}): MemberRule {
  return {
    check: inOrder(
      [(value) => typeof value === 'string', messages.type('string')],
      ...(options.notBlank ? [notBlank] : []),
      [(value) => !CONTROL_CHARACTERS.test(String(value)), messages.controlCharacters],
      [(value) => fitsCharacters(String(value), limit), messages.tooLong(limit)],
    ),
    schema: { type: 'string', ...(options.notBlank ? { minLength: 1 } : {}), maxLength: limit, description: 'No control characters.' },
  };
}

/**
 * Whether the text has at most `limit` characters (code points). A text of no more UTF-16 units than
 * that has no more characters, so only a longer one is counted, without spreading it into an array.
 */
function fitsCharacters(text: string, limit: number): boolean {
  if (text.length <= limit) return true;
  let characters = 0;
  for (const _ of text) if (++characters > limit) return false;
  return true;
}

export function choice(
  values: readonly string[],
  options: { coerce?: (value: unknown) => unknown; description?: string } = {},
): MemberRule {
  return {
    coerce: options.coerce,
    check: inOrder([(value) => values.includes(value as string), messages.choice]),
    schema: { type: 'string', enum: [...values], ...(options.description ? { description: options.description } : {}) },
  };
}

export function macAddress(): MemberRule {
  return {
    coerce: (value) => (typeof value === 'string' ? value.toUpperCase() : value),
    check: inOrder([(value) => typeof value === 'string' && MAC_ADDRESS.test(value), messages.macAddress]),
    schema: { type: 'string', pattern: MAC_ADDRESS.source, example: 'B8:27:EB:0A:1B:2C', description: 'Stored upper-case.' },
  };
}

export function integer(min: number, max: number): MemberRule {
  return {
    // An ExactNumber with a fraction stays one, which is no integer: it is not one as given.
    coerce: (value) => {
      const text = typeof value === 'string' ? value : value instanceof ExactNumber ? value.text : undefined;
      return text !== undefined && INTEGER_TEXT.test(text) ? Number(text) + 0 : value;
    },
    check: inOrder(
      [(value) => Number.isInteger(value), messages.type('integer')],
      [(value) => (value as number) >= min && (value as number) <= max, messages.range(min, max)],
    ),
    schema: { type: 'integer', minimum: min, maximum: max, description: 'Also a string holding the integer, e.g. "42".' },
  };
}

export function decimal(): MemberRule {
  return {
    coerce: (value) => {
      const reading = readDecimal(value);
      return reading.kind === 'decimal' ? reading.text : value;
    },
    check: (value) => {
      const { kind } = readDecimal(value);
      if (kind === 'not-a-number') return messages.type('numeric');
      return kind === 'out-of-range' ? messages.range(-DECIMAL_LIMIT, DECIMAL_LIMIT) : undefined;
    },
    schema: {
      type: 'number',
      minimum: -DECIMAL_LIMIT,
      maximum: DECIMAL_LIMIT,
      description: 'Also a numeric string, e.g. "3.6"; stored rounded to 3 places, half away from zero.',
    },
  };
}

/** Read once here: the accepted value is a SubmittedTime carrying what the text reads as. */
export function deviceTime(): MemberRule {
  const isRead = (value: unknown): value is SubmittedTime => value instanceof SubmittedTime;
  return {
    coerce: (value) => (typeof value === 'string' && fitsCharacters(value, DEVICE_TIME_MAX_LENGTH) ? new SubmittedTime(value) : value),
    check: inOrder(
      [(value) => isRead(value) || typeof value === 'string', messages.type('string')],
      // Only a string too long to be read stays a string.
      [(value) => isRead(value), messages.tooLong(DEVICE_TIME_MAX_LENGTH)],
      [(value) => isRead(value) && value.parsed !== null, messages.datetime],
    ),
    schema: {
      type: 'string',
      maxLength: DEVICE_TIME_MAX_LENGTH,
      example: '2020-07-22T06:11:11+12:00',
      description: 'YYYY-MM-DD, T or a space, HH:MM[:SS[.fraction]], then optionally Z or an offset; without one, local to SITE_TIMEZONE.',
    },
  };
}
