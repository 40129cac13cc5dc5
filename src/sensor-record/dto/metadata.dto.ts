import { NestedList, Unwrapped } from '../validation/member.decorators.js';
import { deviceTime } from '../validation/member-rules.js';
import type { SubmittedTime } from '../values/device-time.js';
import { GatewayDto } from './gateway.dto.js';

/** Network servers list the gateways that heard a report: a handful in practice. */
const MAX_GATEWAYS = 100;

export class MetadataDto {
  /** As the device sent it (quoted verbatim in the title) and as it reads. */
  @Unwrapped(deviceTime(), { required: true })
  time!: SubmittedTime;

  @NestedList(() => GatewayDto, MAX_GATEWAYS)
  gateways?: GatewayDto[];
}
