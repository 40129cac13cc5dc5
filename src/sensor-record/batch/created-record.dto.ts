import { ApiProperty } from '@nestjs/swagger';

/** One entry of a batch's answer: the record a submission became; the full record is one `GET /node/{nid}` away. */
export class CreatedRecordDto {
  @ApiProperty({ type: 'integer', example: 42 })
  nid!: number;

  @ApiProperty({ format: 'uuid', example: '3c9d8b7a-6f5e-4d3c-9b2a-1f0e9d8c7b6a' })
  uuid!: string;

  @ApiProperty({
    description: "The record's address, `${BASE_URL}/node/<nid>` (the single route's `Location`).",
    example: 'https://sensors.example.org/node/42',
  })
  location!: string;
}
