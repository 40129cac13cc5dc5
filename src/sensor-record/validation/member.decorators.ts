import { applyDecorators } from '@nestjs/common';
import { Expose, Transform, Type } from 'class-transformer';
import { IsDefined, IsOptional, ValidateBy, ValidateNested } from 'class-validator';
import type { MemberRule } from './member-rules.js';
import { unwrapMember } from './unwrap-member.js';
import { violationMessages as messages } from './violation-messages.js';

interface MemberOptions {
  required?: boolean;
  /** Inner key of the wrapped shapes: `value`, or `target_id` for `type`. */
  key?: string;
}

const presence = (required: boolean | undefined) => (required ? IsDefined({ message: messages.notNull }) : IsOptional());

const singleItem = ValidateBy(
  { name: 'singleItem', validator: { validate: (value: unknown) => !Array.isArray(value) } },
  { message: messages.oneItem },
);

/**
 * A member the spec lets come as `[{"value": x}]`, `{"value": x}` or bare `x`: the one place those
 * shapes are unwrapped, before the rule coerces and checks the value.
 */
export function Unwrapped(rule: MemberRule, options: MemberOptions = {}): PropertyDecorator {
  const key = options.key ?? 'value';
  return applyDecorators(
    Expose(),
    Transform(({ obj, key: property }) => {
      const value = unwrapMember((obj as Record<string, unknown>)[property], key);
      return value === undefined || value === null || Array.isArray(value) || !rule.coerce ? value : rule.coerce(value);
    }),
    presence(options.required),
    singleItem,
    ...rule.validators,
  );
}

/** A member that must be a JSON object, validated as `type`. */
export function NestedObject(type: () => new () => object, options: Pick<MemberOptions, 'required'> = {}): PropertyDecorator {
  return applyDecorators(
    Expose(),
    Type(type),
    presence(options.required),
    ValidateBy(
      { name: 'isObject', validator: { validate: (value: unknown) => value instanceof type() } },
      { message: messages.type('object') },
    ),
    ValidateNested(),
  );
}

/** An optional list whose items must be JSON objects, each validated as `type`. */
export function NestedList(type: () => new () => object): PropertyDecorator {
  return applyDecorators(
    Expose(),
    Type(type),
    IsOptional(),
    ValidateBy({ name: 'isArray', validator: { validate: (value: unknown) => Array.isArray(value) } }, { message: messages.type('array') }),
    ValidateNested({ each: true, message: messages.type('object') }),
  );
}
