import { type MiddlewareConsumer, Module, type NestModule, RequestMethod } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AlertOutbox } from '../alerts/alert-outbox.js';
import { AlertsModule } from '../alerts/alerts.module.js';
import { UserEntity } from '../auth/users/user.entity.js';
import { SerializationModule } from '../serialization/serialization.module.js';
import { BatchAdmissionMiddleware, BatchesInFlight } from './batch/batches-in-flight.js';
import { BATCH_BODY_LIMIT } from './batch/parse-submission-batch.pipe.js';
import { SENSOR_RECORD_BATCH_PATH, SensorRecordBatchController } from './batch/sensor-record-batch.controller.js';
import { SENSOR_RECORD_PATH, SensorRecordController } from './sensor-record.controller.js';
import { SensorRecordEntity } from './sensor-record.entity.js';
import { SensorRecordService } from './sensor-record.service.js';
import { DEFAULT_WRITER_LIMITS, SensorRecordWriter } from './sensor-record-writer.js';
import { SUBMISSION_BODY_LIMIT } from './submission/parse-submission.pipe.js';
import { submissionBody } from './submission/submission-body.middleware.js';

@Module({
  imports: [TypeOrmModule.forFeature([SensorRecordEntity, UserEntity]), SerializationModule, AlertsModule],
  controllers: [SensorRecordController, SensorRecordBatchController],
  providers: [
    SensorRecordService,
    BatchesInFlight,
    // A factory: the writer's limits are a plain constructor argument (its unit tests pass smaller ones).
    // The alerts' outbox is written in each batch's transaction.
    {
      provide: SensorRecordWriter,
      useFactory: (dataSource: DataSource, outbox: AlertOutbox) => new SensorRecordWriter(dataSource, DEFAULT_WRITER_LIMITS, outbox),
      inject: [DataSource, AlertOutbox],
    },
  ],
  // The integrations store the records they make from uplinks through the same service and writer.
  // The sensor routes and the records feed render records as GET /node/{nid} does.
  exports: [SensorRecordService],
})
export class SensorRecordModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    // Submission bodies are read as bytes: size, content type and JSON syntax are checked after the bearer guard.
    consumer.apply(submissionBody(SUBMISSION_BODY_LIMIT.bytes)).forRoutes({ path: SENSOR_RECORD_PATH, method: RequestMethod.POST });
    // A batch's place is taken before its body is read: the bodies held at once are what the bound is for.
    consumer
      .apply(BatchAdmissionMiddleware, submissionBody(BATCH_BODY_LIMIT.bytes))
      .forRoutes({ path: SENSOR_RECORD_BATCH_PATH, method: RequestMethod.POST });
  }
}
