import { NestedObject, Unwrapped } from '../validation/member.decorators.js';
import { text } from '../validation/member-rules.js';
import { MetadataDto } from './metadata.dto.js';
import { PayloadFieldsDto } from './payload-fields.dto.js';

/** A submission after unwrapping and validation: what creating a sensor record takes; members not named here are ignored. */
export class CreateSensorRecordDto {
  @Unwrapped(text(255, { notBlank: true }), { required: true })
  dev_id!: string;

  @NestedObject(() => MetadataDto, { required: true })
  metadata!: MetadataDto;

  @NestedObject(() => PayloadFieldsDto, { required: true })
  payload_fields!: PayloadFieldsDto;
}
