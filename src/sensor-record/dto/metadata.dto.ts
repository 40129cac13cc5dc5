import { NestedList, Unwrapped } from '../validation/member.decorators.js';
import { deviceTime } from '../validation/member-rules.js';
import { GatewayDto } from './gateway.dto.js';

export class MetadataDto {
  /** ISO 8601 as the device sent it; also quoted verbatim in the title. */
  @Unwrapped(deviceTime(), { required: true })
  time!: string;

  @NestedList(() => GatewayDto)
  gateways?: GatewayDto[];
}
