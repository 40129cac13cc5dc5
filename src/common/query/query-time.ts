import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsOptional, ValidateBy } from 'class-validator';
import { DEVICE_TIME_MAX_LENGTH, SubmittedTime } from '../../sensor-record/values/device-time.js';

export const queryTimeReason = 'This value is not a valid datetime.';

/**
 * An offset's `+` sent unencoded in a query string arrives as a space (`…T04:35:00 00:00`): read
 * back as the `+` it was, since a space cannot stand before an offset otherwise. Only a space after
 * the time of day is one: the space between date and time (`2026-11-29 21:00`) is the device time
 * syntax's own (docs/interface.md#device-time).
 */
export function readQueryTime(text: string): SubmittedTime {
  return new SubmittedTime(text.replace(/^(\S+[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?) (\d{2}(?::?\d{2})?)$/, '$1+$2'));
}

function isQueryTime(value: unknown): boolean {
  return value instanceof SubmittedTime && value.text.length <= DEVICE_TIME_MAX_LENGTH && value.parsed !== null;
}

/** An optional instant parameter, read as a device time is (docs/interface.md#device-time). */
export function QueryTime() {
  return applyDecorators(
    IsOptional(),
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? readQueryTime(value) : value)),
    ValidateBy({ name: 'isQueryTime', validator: { validate: isQueryTime } }, { message: queryTimeReason }),
  );
}
