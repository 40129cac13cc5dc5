import { Module } from '@nestjs/common';
import { RetentionService } from './retention.service.js';

/** Records kept for RECORD_RETENTION_DAYS, their request bodies for REQUEST_BODY_RETENTION_DAYS. */
@Module({
  providers: [RetentionService],
})
export class RetentionModule {}
