import express from 'express';
import { ValidatorConstraint, ValidatorConstraintInterface, ValidationArguments } from 'class-validator';

/** Express's `trust proxy` setting: trust every hop, none, this many, or these addresses and subnets. */
export type TrustProxy = boolean | number | string[];

/** `true`, `false`, a hop count, or a comma list of addresses, subnets and proxy-addr's names (`loopback`). */
export function readTrustProxy(value: string): TrustProxy {
  if (value === 'true') return true;
  if (value === 'false') return false;
  return /^\d+$/.test(value) ? Number(value) : value.split(',').map((address) => address.trim());
}

/**
 * TRUST_PROXY checked by Express itself, which compiles the setting when it is set, so that a bad
 * address stops the service at start-up naming the variable, not as Express's own text.
 */
@ValidatorConstraint({ name: 'isTrustProxy' })
export class IsTrustProxy implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    if (typeof value !== 'string') return false;
    try {
      express().set('trust proxy', readTrustProxy(value));
      return true;
    } catch {
      return false;
    }
  }

  defaultMessage(args: ValidationArguments): string {
    return `${args.property} must be true, false, a hop count, or IP addresses and subnets separated by commas (loopback, linklocal and uniquelocal name theirs)`;
  }
}
