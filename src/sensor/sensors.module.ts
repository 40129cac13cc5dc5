import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SensorRecordModule } from '../sensor-record/sensor-record.module.js';
import { SerializationModule } from '../serialization/serialization.module.js';
import { SensorEntity } from './sensor.entity.js';
import { SensorGaugesService } from './sensor-gauges.service.js';
import { SensorsController } from './sensors.controller.js';
import { SensorsService } from './sensors.service.js';

/** The sensor table read back: the sensor routes, and the gauges of sensors per state. */
@Module({
  imports: [TypeOrmModule.forFeature([SensorEntity]), SensorRecordModule, SerializationModule],
  controllers: [SensorsController],
  providers: [SensorsService, SensorGaugesService],
})
export class SensorsModule {}
