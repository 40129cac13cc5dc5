import { type MiddlewareConsumer, Module, type NestModule, RequestMethod } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { TypeOrmModule } from '@nestjs/typeorm';
import { UserEntity } from '../auth/users/user.entity.js';
import { CLOCK, systemClock } from '../common/time/clock.js';
import { SerializationModule } from '../serialization/serialization.module.js';
import { SENSOR_RECORD_PATH, SensorRecordController } from './sensor-record.controller.js';
import { SensorRecordEntity } from './sensor-record.entity.js';
import { SensorRecordService } from './sensor-record.service.js';
import { SensorRecordWriter } from './sensor-record-writer.js';
import { submissionBody } from './submission/submission-body.middleware.js';

/** Submission bodies are read as bytes: size, content type and JSON syntax are checked after the bearer guard. */
const SUBMISSION_BODY_LIMIT = '64kb';

@Module({
  imports: [TypeOrmModule.forFeature([SensorRecordEntity, UserEntity]), SerializationModule],
  controllers: [SensorRecordController],
  providers: [
    SensorRecordService,
    { provide: CLOCK, useValue: systemClock },
    // A factory: the writer's limits are a plain constructor argument (its unit tests pass smaller ones).
    { provide: SensorRecordWriter, useFactory: (dataSource: DataSource) => new SensorRecordWriter(dataSource), inject: [DataSource] },
  ],
  // The sensor routes and the records feed render records as GET /node/{nid} does.
  exports: [SensorRecordService],
})
export class SensorRecordModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(submissionBody(SUBMISSION_BODY_LIMIT)).forRoutes({ path: SENSOR_RECORD_PATH, method: RequestMethod.POST });
  }
}
