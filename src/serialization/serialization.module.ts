import { Module } from '@nestjs/common';
import { SerializationService } from './serialization.service.js';

/**
 * Renders sensor records. Routes use it through `@RenderSensorRecord()`, whose interceptor Nest
 * builds in the route's own module: that is what needs SerializationService exported.
 */
@Module({
  providers: [SerializationService],
  exports: [SerializationService],
})
export class SerializationModule {}
