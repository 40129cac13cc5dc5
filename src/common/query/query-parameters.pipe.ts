import { HttpStatus, type PipeTransform } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, validateSync, type ValidationError } from 'class-validator';
import { ApiException } from '../errors/api-exception.js';

/** Read by the format negotiation, never by a DTO. */
const FORMAT_PARAMETER = '_format';

const QUERY_MESSAGES = {
  repeated: 'This parameter is given more than once.',
  unknown: 'This parameter is not recognised.',
} as const;

/** The 400 text: one line per parameter at fault, naming it (docs/interface.md#query-parameters). */
export function invalidQueryMessage(lines: string[]): string {
  return `Invalid query parameters.\n${lines.map((line) => `${line}\n`).join('')}`;
}

/**
 * Validates a route's query string against its DTO class (class-validator), answering 400 with every
 * parameter at fault: one given twice, one the route does not know (a misspelt `changed_since` must
 * not silently start from the beginning), or one that breaks its rule. Returns the DTO instance.
 */
export class QueryParametersPipe<T extends object> implements PipeTransform<Record<string, unknown>, T> {
  private readonly known: Set<string>;

  constructor(private readonly dto: new () => T) {
    this.known = new Set(
      getMetadataStorage()
        .getTargetValidationMetadatas(dto, '', false, false)
        .map((rule) => rule.propertyName),
    );
  }

  transform(query: Record<string, unknown>): T {
    const lines: string[] = [];
    const given: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(query ?? {})) {
      if (name === FORMAT_PARAMETER) continue;
      if (!this.known.has(name)) lines.push(`${name}: ${QUERY_MESSAGES.unknown}`);
      else if (typeof value !== 'string') lines.push(`${name}: ${QUERY_MESSAGES.repeated}`);
      else given[name] = value;
    }
    const instance = plainToInstance(this.dto, given);
    const errors = validateSync(instance, { stopAtFirstError: true });
    lines.push(...errors.map(firstViolation));
    if (lines.length > 0) throw new ApiException(HttpStatus.BAD_REQUEST, invalidQueryMessage(lines));
    return instance;
  }
}

function firstViolation(error: ValidationError): string {
  const [reason] = Object.values(error.constraints ?? {});
  return `${error.property}: ${reason ?? 'This value is not valid.'}`;
}
