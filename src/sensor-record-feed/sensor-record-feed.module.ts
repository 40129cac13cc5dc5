import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SensorRecordEntity } from '../sensor-record/sensor-record.entity.js';
import { SensorRecordModule } from '../sensor-record/sensor-record.module.js';
import { SerializationModule } from '../serialization/serialization.module.js';
import { SensorRecordFeedController } from './sensor-record-feed.controller.js';
import { SensorRecordFeedService } from './sensor-record-feed.service.js';

/** The records feed (docs/interface.md#get-api-sensorsensor-records). */
@Module({
  imports: [TypeOrmModule.forFeature([SensorRecordEntity]), SensorRecordModule, SerializationModule],
  controllers: [SensorRecordFeedController],
  providers: [SensorRecordFeedService],
})
export class SensorRecordFeedModule {}
