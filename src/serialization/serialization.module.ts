import { Module } from '@nestjs/common';
import { SerializationService } from './serialization.service.js';

@Module({
  providers: [SerializationService],
  exports: [SerializationService],
})
export class SerializationModule {}
