import { NestedList, Unwrapped } from '../validation/member.decorators.js';
import { deviceTime } from '../validation/member-rules.js';
import { GatewayDto } from './gateway.dto.js';

/** Network servers list the gateways that heard a report: a handful in practice. */
export const MAX_GATEWAYS = 100;

export class MetadataDto {
  /** ISO 8601 as the device sent it; also quoted verbatim in the title. */
  @Unwrapped(deviceTime(), { required: true })
  time!: string;

  @NestedList(() => GatewayDto, MAX_GATEWAYS)
  gateways?: GatewayDto[];
}
