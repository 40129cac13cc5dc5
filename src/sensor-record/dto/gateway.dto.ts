import { Unwrapped } from '../validation/member.decorators.js';
import { decimal, integer, INT32_MAX, INT32_MIN } from '../validation/member-rules.js';

/** One entry of `metadata.gateways`; network servers name the members `rssi`/`snr` or `field_rssi`/`field_snr`. */
export class GatewayDto {
  @Unwrapped(integer(INT32_MIN, INT32_MAX))
  rssi?: number;

  @Unwrapped(integer(INT32_MIN, INT32_MAX))
  field_rssi?: number;

  @Unwrapped(decimal())
  snr?: string;

  @Unwrapped(decimal())
  field_snr?: string;
}
