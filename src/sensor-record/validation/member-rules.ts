import { ValidateBy } from 'class-validator';
import { readDecimal, DECIMAL_LIMIT } from '../values/decimal.js';
import { DEVICE_TIME_MAX_LENGTH, parseDeviceTime } from '../values/device-time.js';
import { violationMessages as messages } from './violation-messages.js';

/** How one member is checked after unwrapping, and how an accepted spelling becomes the stored value. */
export interface MemberRule {
  /** Applied to a present value before validation; what it does not recognise it returns unchanged. */
  coerce?: (value: unknown) => unknown;
  /** Run in order; only the first failing one is reported for a member. */
  validators: PropertyDecorator[];
}

export const INT32_MIN = -2_147_483_648;
export const INT32_MAX = 2_147_483_647;
const INTEGER_TEXT = /^[+-]?\d+$/;
const MAC_ADDRESS = /^[0-9A-F]{2}(?::[0-9A-F]{2}){5}$/;
// C0 and C1 controls, DEL, the XML 1.0 non-characters and unpaired surrogates: none survives an XML rendering.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function check(name: string, message: string, test: (value: unknown) => boolean): PropertyDecorator {
  return ValidateBy({ name, validator: { validate: (value: unknown) => test(value) } }, { message });
}

const isString = check('isString', messages.type('string'), (value) => typeof value === 'string');
const noControlCharacters = check('noControlCharacters', messages.controlCharacters, (value) => !CONTROL_CHARACTERS.test(String(value)));
const maxLength = (limit: number) => check('maxLength', messages.tooLong(limit), (value) => [...String(value)].length <= limit);

export function text(limit: number, options: { notBlank?: boolean } = {}): MemberRule {
  const notBlank = check('notBlank', messages.notBlank, (value) => value !== '');
  return { validators: [isString, ...(options.notBlank ? [notBlank] : []), noControlCharacters, maxLength(limit)] };
}

export function choice(values: readonly string[], coerce?: (value: unknown) => unknown): MemberRule {
  return { coerce, validators: [check('choice', messages.choice, (value) => values.includes(value as string))] };
}

export function macAddress(): MemberRule {
  return {
    coerce: (value) => (typeof value === 'string' ? value.toUpperCase() : value),
    validators: [check('macAddress', messages.macAddress, (value) => typeof value === 'string' && MAC_ADDRESS.test(value))],
  };
}

export function integer(min: number, max: number): MemberRule {
  return {
    coerce: (value) => (typeof value === 'string' && INTEGER_TEXT.test(value) ? Number(value) + 0 : value),
    validators: [
      check('isInteger', messages.type('integer'), (value) => Number.isInteger(value)),
      check('range', messages.range(min, max), (value) => (value as number) >= min && (value as number) <= max),
    ],
  };
}

export function decimal(): MemberRule {
  return {
    coerce: (value) => {
      const reading = readDecimal(value);
      return reading.kind === 'decimal' ? reading.text : value;
    },
    validators: [
      check('isNumeric', messages.type('numeric'), (value) => readDecimal(value).kind !== 'not-a-number'),
      check('range', messages.range(-DECIMAL_LIMIT, DECIMAL_LIMIT), (value) => readDecimal(value).kind === 'decimal'),
    ],
  };
}

export function deviceTime(): MemberRule {
  return {
    validators: [
      isString,
      maxLength(DEVICE_TIME_MAX_LENGTH),
      check('datetime', messages.datetime, (value) => parseDeviceTime(value as string) !== null),
    ],
  };
}
