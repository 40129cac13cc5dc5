import { applyDecorators } from '@nestjs/common';
import { ApiProperty, type SchemaObject } from '@nestjs/swagger';
import { IsDefined, IsOptional, ValidateBy, ValidateNested } from 'class-validator';
import type { MemberRule } from './member-rules.js';
import { shapeInstance, shapeMember, shapeNested, type MemberReader } from './submission-shape.js';
import { isPlainObject, unwrapMember } from './unwrap-member.js';
import { violationMessages as messages } from './violation-messages.js';

interface MemberOptions {
  required?: boolean;
  /** Inner key of the wrapped shapes: `value`, or `target_id` for `type`. */
  key?: string;
  /** What an absent member is stored as, for the OpenAPI description. */
  default?: unknown;
}

/** The OpenAPI schema of a member in its three accepted shapes, the list of one (Drupal's own) first. */
function memberShapes(value: SchemaObject, key: string): SchemaObject[] {
  const item: SchemaObject = { type: 'object', required: [key], properties: { [key]: value } };
  return [{ type: 'array', minItems: 1, maxItems: 1, items: item }, item, value];
}

const presence = (required: boolean | undefined) => (required ? IsDefined({ message: messages.notNull }) : IsOptional());

/**
 * The member's checks as one class-validator constraint: a list (more than the one item a list-of-one
 * holds) first, then the rule's checks in order. One constraint rather than one per check: class-validator's
 * work per value grows with the constraints it looks up (docs/benchmark.md#where-the-time-goes).
 */
function memberConstraint(rule: MemberRule): PropertyDecorator {
  const violation = (value: unknown) => (Array.isArray(value) ? messages.oneItem : rule.check(value));
  return ValidateBy(
    { name: 'member', validator: { validate: (value: unknown) => violation(value) === undefined } },
    { message: ({ value }) => violation(value) ?? '' },
  );
}

/** Registers how the member is read from a submitted object (submission-shape.ts). */
const ReadBy =
  (read: (submitted: Record<string, unknown>, property: string) => unknown): PropertyDecorator =>
  (target, property) => {
    const name = String(property);
    const reader: MemberReader = (submitted) => read(submitted, name);
    shapeMember(target, name, reader);
  };

/**
 * A member that may come as `[{"value": x}]`, `{"value": x}` or bare `x` (docs/interface.md#member-shapes): the
 * one place those shapes are unwrapped, before the rule coerces and checks the value.
 */
export function Unwrapped(rule: MemberRule, options: MemberOptions = {}): PropertyDecorator {
  const key = options.key ?? 'value';
  return applyDecorators(
    ApiProperty({
      required: options.required ?? false,
      oneOf: memberShapes(rule.schema, key),
      ...(options.default === undefined ? {} : { default: options.default }),
    }),
    ReadBy((submitted, property) => {
      const value = unwrapMember(submitted[property], key);
      return value === undefined || value === null || Array.isArray(value) || !rule.coerce ? value : rule.coerce(value);
    }),
    presence(options.required),
    memberConstraint(rule),
  );
}

/** A member that must be a JSON object, validated as `type`. */
export function NestedObject(type: () => new () => object, options: Pick<MemberOptions, 'required'> = {}): PropertyDecorator {
  return applyDecorators(
    ApiProperty({ type: () => type(), required: options.required ?? false }),
    ReadBy((submitted, property) => shapeNested(type(), submitted[property])),
    presence(options.required),
    ValidateBy(
      { name: 'isObject', validator: { validate: (value: unknown) => value instanceof type() } },
      { message: messages.type('object') },
    ),
    ValidateNested(),
  );
}

/**
 * An optional list of at most `maxItems` items, each a JSON object validated as `type`. A longer list
 * stands in as an empty list of its length: its items are neither converted nor validated, and only
 * the length is reported. An item that is not an object (a list nested in the list included, which
 * class-validator would otherwise walk into as more items) stands in as `null`, which it reports as
 * not an object.
 */
export function NestedList(type: () => new () => object, maxItems: number): PropertyDecorator {
  return applyDecorators(
    ApiProperty({ type: () => type(), isArray: true, required: false, maxItems }),
    ReadBy((submitted, property) => {
      const list = submitted[property];
      if (!Array.isArray(list)) return list;
      if (list.length > maxItems) return new Array<unknown>(list.length);
      return list.map((item: unknown) => (isPlainObject(item) ? shapeInstance(type(), item) : null));
    }),
    IsOptional(),
    ValidateBy({ name: 'isArray', validator: { validate: (value: unknown) => Array.isArray(value) } }, { message: messages.type('array') }),
    ValidateBy(
      { name: 'maxItems', validator: { validate: (value: unknown) => (value as unknown[]).length <= maxItems } },
      { message: messages.tooMany(maxItems) },
    ),
    ValidateNested({ each: true, message: messages.type('object') }),
  );
}
