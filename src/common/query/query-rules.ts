import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';

// Reasons in the wording of the submission's (Symfony's) messages.
export const queryReasons = {
  integer: 'This value should be of type integer.',
  between: (min: number, max: number) => `This value should be between ${min} and ${max}.`,
  boolean: 'This value should be true or false.',
  choice: (choices: readonly string[]) => `The value you selected is not a valid choice (${choices.join(', ')}).`,
  length: (max: number) => `This value should have 1 to ${max} characters.`,
} as const;

/**
 * An optional integer parameter: digits, a minus sign allowed (no plus, fraction or exponent), between
 * the bounds. Any integer short of 16 digits is read as one, so that one out of range is told the bounds
 * rather than that it is no integer.
 */
export function QueryInteger(min: number, max: number) {
  return applyDecorators(
    IsOptional(),
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' && /^-?\d{1,15}$/.test(value) ? Number(value) : value)),
    IsInt({ message: queryReasons.integer }),
    Min(min, { message: queryReasons.between(min, max) }),
    Max(max, { message: queryReasons.between(min, max) }),
  );
}

/** An optional boolean parameter: `true`/`false` (or `1`/`0`). */
export function QueryBoolean() {
  return applyDecorators(
    IsOptional(),
    Transform(({ value }: { value: unknown }) => ({ true: true, '1': true, false: false, '0': false })[String(value)] ?? value),
    IsBoolean({ message: queryReasons.boolean }),
  );
}

/** An optional parameter that names one of `choices`. */
export function QueryChoice(choices: readonly string[]) {
  return applyDecorators(IsOptional(), IsIn(choices, { message: queryReasons.choice(choices) }));
}

/** An optional text parameter of 1 to `max` characters. */
export function QueryText(max: number) {
  return applyDecorators(IsOptional(), IsString(), Length(1, max, { message: queryReasons.length(max) }));
}
