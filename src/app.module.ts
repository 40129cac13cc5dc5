import { Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { AuthModule } from './auth/auth.module.js';
import { AllExceptionsFilter } from './common/filters/all-exceptions.filter.js';
import { HttpServerDrainService } from './common/process/http-server-drain.service.js';
import { ClockModule } from './common/time/clock.module.js';
import { ConfigModule } from './config/config.module.js';
import { DatabaseModule } from './database/database.module.js';
import { FleetPageModule } from './fleet-page/fleet-page.module.js';
import { HealthModule } from './health/health.module.js';
import { IntegrationsModule } from './integrations/integrations.module.js';
import { LoggingModule } from './logging/logging.module.js';
import { MetricsModule } from './metrics/metrics.module.js';
import { RetentionModule } from './retention/retention.module.js';
import { SensorRecordModule } from './sensor-record/sensor-record.module.js';
import { SensorsModule } from './sensor/sensors.module.js';
import { SensorRecordFeedModule } from './sensor-record-feed/sensor-record-feed.module.js';

@Module({
  imports: [
    ConfigModule,
    ClockModule,
    LoggingModule,
    DatabaseModule,
    MetricsModule,
    HealthModule,
    AuthModule,
    SensorRecordModule,
    SensorsModule,
    SensorRecordFeedModule,
    IntegrationsModule,
    FleetPageModule,
    RetentionModule,
  ],
  providers: [{ provide: APP_FILTER, useClass: AllExceptionsFilter }, HttpServerDrainService],
})
export class AppModule {}
