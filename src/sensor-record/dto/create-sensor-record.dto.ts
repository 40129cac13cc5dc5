import { NestedObject, Unwrapped } from '../validation/member.decorators.js';
import { text } from '../validation/member-rules.js';
import { MetadataDto } from './metadata.dto.js';
import { PayloadFieldsDto } from './payload-fields.dto.js';

/** What a submission's dev_id must be: the rule alert:create --sensor is held to as well. */
export const DEV_ID_RULE = text(255, { notBlank: true });

/** A submission after unwrapping and validation: what creating a sensor record takes; members not named here are ignored. */
export class CreateSensorRecordDto {
  @Unwrapped(DEV_ID_RULE, { required: true })
  dev_id!: string;

  @NestedObject(() => MetadataDto, { required: true })
  metadata!: MetadataDto;

  @NestedObject(() => PayloadFieldsDto, { required: true })
  payload_fields!: PayloadFieldsDto;
}
