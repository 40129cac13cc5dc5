import { getMetadataStorage, type ValidationArguments, ValidationTypes } from 'class-validator';

/**
 * Whether an instance passes every class-validator constraint its class declares, asked of the
 * constraints themselves: the same decorators, metadata and validator functions `validate()` runs,
 * without the ValidationError it builds for every member of every nested object, valid or not (in a
 * batch of reports, the largest part of validation's cost: docs/benchmark.md#where-the-time-goes).
 * It answers only yes or "not sure": a submission it does not pass is validated by `validate()`, which
 * alone words the violations. Anything it cannot decide alone (a validation type other than those
 * below, an async constraint, validation groups) answers "not sure".
 *
 * It follows class-validator's ValidationExecutor with the options of submission-validation.pipe.ts
 * (no groups, no skipping of missing members, forbidUnknownValues off): a member whose conditions
 * (`@IsOptional`) fail is not checked; otherwise its `@IsDefined` and custom constraints must hold, and a
 * nested member, when present, must be an object (or a list of objects) passing the same.
 */
export function passesConstraints(instance: object): boolean {
  const plan = planOf(instance.constructor as ValidatedClass);
  if (plan === undefined) return false;
  for (const member of plan) {
    const value = (instance as Record<string, unknown>)[member.property];
    if (!allHold(member.conditions, instance, value)) continue;
    for (const check of member.checks) if (check(instance, value) !== true) return false;
    if (member.nested && value !== undefined && !nestedPasses(value)) return false;
  }
  return true;
}

function allHold(conditions: MemberPlan['conditions'], instance: object, value: unknown): boolean {
  for (const condition of conditions) if (!condition(instance, value)) return false;
  return true;
}

function nestedPasses(value: unknown): boolean {
  if (Array.isArray(value)) return value.every((item) => item instanceof Object && passesConstraints(item));
  return value instanceof Object && passesConstraints(value);
}

/** A class as class-validator's metadata storage keys it. */
type ValidatedClass = abstract new (...args: never[]) => object;

/** One member's constraints, in the order class-validator runs them. */
interface MemberPlan {
  property: string;
  conditions: Array<(object: object, value: unknown) => boolean>;
  /** `true` when the value passes; anything else (false, a promise) is not a pass. */
  checks: Array<(object: object, value: unknown) => unknown>;
  nested: boolean;
}

/** Per class, once: its members' plans, or undefined when some constraint is one this check does not decide. */
const plans = new Map<ValidatedClass, MemberPlan[] | undefined>();

function planOf(type: ValidatedClass): MemberPlan[] | undefined {
  if (!plans.has(type)) plans.set(type, buildPlan(type));
  return plans.get(type);
}

const DECIDED_TYPES = new Set([
  ValidationTypes.IS_DEFINED,
  ValidationTypes.CUSTOM_VALIDATION,
  ValidationTypes.CONDITIONAL_VALIDATION,
  ValidationTypes.NESTED_VALIDATION,
]);

function buildPlan(type: ValidatedClass): MemberPlan[] | undefined {
  const storage = getMetadataStorage();
  const metadatas = storage.getTargetValidationMetadatas(type, '', false, false, undefined);
  // `each` on a nested member changes nothing (class-validator walks a list either way); on a check it would.
  const undecided = metadatas.some(
    (metadata) =>
      !DECIDED_TYPES.has(metadata.type) ||
      metadata.groups?.length ||
      (metadata.each && metadata.type !== ValidationTypes.NESTED_VALIDATION),
  );
  if (undecided) return undefined;
  const plan: MemberPlan[] = [];
  for (const [property, members] of Object.entries(storage.groupByPropertyName(metadatas))) {
    const ofType = (kind: string) => members.filter((metadata) => metadata.type === kind);
    const checks: MemberPlan['checks'] = [];
    // @IsDefined first, as class-validator runs it whatever else is set.
    for (const metadata of [...ofType(ValidationTypes.IS_DEFINED), ...ofType(ValidationTypes.CUSTOM_VALIDATION)]) {
      const constraints = storage.getTargetValidatorConstraints(metadata.constraintCls);
      if (constraints.some((constraint) => constraint.async)) return undefined;
      for (const constraint of constraints) {
        // Looked up once: each read of `instance` searches class-validator's container (a list of every
        // constraint class), which returns the same object every time.
        const validator = constraint.instance;
        // One arguments object per check, filled anew for each call: checks are synchronous (async ones are
        // undecided above), so no call sees another's values.
        const args: ValidationArguments = {
          targetName: type.name,
          property: metadata.propertyName,
          object: {},
          value: undefined,
          constraints: metadata.constraints,
        };
        checks.push((object, value) => {
          if (metadata.validateIf && !metadata.validateIf(object, value)) return true;
          args.object = object;
          args.value = value;
          return validator.validate(value, args);
        });
      }
    }
    plan.push({
      property,
      conditions: ofType(ValidationTypes.CONDITIONAL_VALIDATION).map(
        (metadata) => metadata.constraints[0] as (object: object, value: unknown) => boolean,
      ),
      checks,
      nested: ofType(ValidationTypes.NESTED_VALIDATION).length > 0,
    });
  }
  return plan;
}
