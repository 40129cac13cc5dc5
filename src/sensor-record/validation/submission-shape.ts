import { isPlainObject } from './unwrap-member.js';

/**
 * How a submitted JSON object becomes an instance of its DTO class for class-validator: each member
 * decorator (member.decorators.ts) registers here how its property is read from the submitted object,
 * once, when the class is declared; shaping a submission then reads exactly those members, and nothing
 * else of the object (unknown members are dropped, `__proto__` and `constructor` members never read).
 * It replaces class-transformer's `plainToInstance`, which looked its metadata up and walked the
 * object generically for every submission: in a batch of reports, the largest cost per record
 * (docs/benchmark.md#choices-made-by-measurement).
 */

/** Reads one member from the submitted object. */
export type MemberReader = (submitted: Record<string, unknown>) => unknown;

type DtoClass = abstract new () => object;

const readersOf = new Map<DtoClass, Array<[property: string, read: MemberReader]>>();

/** Registers how `property` of the class is read; the properties are shaped in declaration order. */
export function shapeMember(target: object, property: string, read: MemberReader): void {
  const type = target.constructor as DtoClass;
  const readers = readersOf.get(type);
  if (readers) readers.push([property, read]);
  else readersOf.set(type, [[property, read]]);
}

/** An instance of `type` holding the members its decorators read from `submitted`. */
export function shapeInstance<T extends object>(type: new () => T, submitted: Record<string, unknown>): T {
  const readers = readersOf.get(type);
  if (!readers) throw new Error(`${type.name} declares no submitted members`);
  const instance = new type() as Record<string, unknown>;
  for (const [property, read] of readers) instance[property] = read(submitted);
  return instance as T;
}

/**
 * A member validated as a nested object: an object becomes an instance of `type`, a list a list of
 * the same (for validation to refuse as not an object), anything else stays as it is.
 */
export function shapeNested(type: new () => object, value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item: unknown) => shapeNested(type, item));
  if (isPlainObject(value)) return shapeInstance(type, value);
  return value;
}
