import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsOptional, ValidateBy } from 'class-validator';
import { DEVICE_TIME_MAX_LENGTH, SubmittedTime } from '../../sensor-record/values/device-time.js';

export const queryTimeReason = 'This value is not a valid datetime.';

/**
 * An offset's `+` sent unencoded in a query string arrives as a space (`…T04:35:00 00:00`): read
 * back as the `+` it was, since a space cannot stand before an offset otherwise.
 */
function readQueryTime({ value }: { value: unknown }): unknown {
  return typeof value === 'string' ? new SubmittedTime(value.replace(/ (\d{2}(?::?\d{2})?)$/, '+$1')) : value;
}

function isQueryTime(value: unknown): boolean {
  return value instanceof SubmittedTime && value.text.length <= DEVICE_TIME_MAX_LENGTH && value.parsed !== null;
}

/** An optional instant parameter, read as a device time is (docs/interface.md#device-time). */
export function QueryTime() {
  return applyDecorators(
    IsOptional(),
    Transform(readQueryTime),
    ValidateBy({ name: 'isQueryTime', validator: { validate: isQueryTime } }, { message: queryTimeReason }),
  );
}
