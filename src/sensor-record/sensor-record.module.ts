import { type MiddlewareConsumer, Module, type NestModule, RequestMethod } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AuthModule } from '../auth/auth.module.js';
import { SerializationModule } from '../serialization/serialization.module.js';
import { HttpServerDrainService } from './http-server-drain.service.js';
import { SENSOR_RECORD_PATH, SensorRecordController } from './sensor-record.controller.js';
import { SensorRecordService } from './sensor-record.service.js';
import { SensorRecordWriter } from './sensor-record-writer.js';
import { submissionBody } from './submission/submission-body.middleware.js';

/** Submission bodies are read as bytes: size, content type and JSON syntax are checked after the bearer guard. */
const SUBMISSION_BODY_LIMIT = '64kb';

@Module({
  imports: [AuthModule, SerializationModule],
  controllers: [SensorRecordController],
  providers: [
    SensorRecordService,
    HttpServerDrainService,
    // A factory: the writer's limits are a plain constructor argument (its unit tests pass smaller ones).
    { provide: SensorRecordWriter, useFactory: (dataSource: DataSource) => new SensorRecordWriter(dataSource), inject: [DataSource] },
  ],
  exports: [SensorRecordService],
})
export class SensorRecordModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer
      .apply(submissionBody(SUBMISSION_BODY_LIMIT))
      .forRoutes({ path: SENSOR_RECORD_PATH, method: RequestMethod.POST });
  }
}
