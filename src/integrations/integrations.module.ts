import { type MiddlewareConsumer, Module, type NestModule, RequestMethod } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../auth/auth.module.js';
import { UserEntity } from '../auth/users/user.entity.js';
import { SUBMISSION_BODY_LIMIT } from '../sensor-record/submission/parse-submission.pipe.js';
import { submissionBody } from '../sensor-record/submission/submission-body.middleware.js';
import { SensorRecordModule } from '../sensor-record/sensor-record.module.js';
import { SerializationModule } from '../serialization/serialization.module.js';
import { IntegrationsService } from './admin/integrations.service.js';
import { IntegrationEntity } from './integration.entity.js';
import { UPLINK_PATHS } from './integration-network.js';
import { IntegrationsController } from './integrations.controller.js';
import { IntegrationKeyGuard } from './key/integration-key.guard.js';
import { IntegrationKeyStateService } from './key/integration-key-state.service.js';
import { IntegrationKeyStrategy } from './key/integration-key.strategy.js';
import { UplinksService } from './uplinks.service.js';

/**
 * The Things Stack and ChirpStack post their uplinks straight to the service with an integration key
 * (docs/interface.md#network-server-integrations); each uplink becomes a sensor record, once.
 */
@Module({
  imports: [TypeOrmModule.forFeature([IntegrationEntity, UserEntity]), AuthModule, SensorRecordModule, SerializationModule],
  controllers: [IntegrationsController],
  providers: [IntegrationsService, IntegrationKeyStateService, IntegrationKeyStrategy, IntegrationKeyGuard, UplinksService],
})
export class IntegrationsModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    // As for submissions: read as bytes (an uplink is a few KiB), checked after the key.
    consumer
      .apply(submissionBody(SUBMISSION_BODY_LIMIT.bytes))
      .forRoutes(...Object.values(UPLINK_PATHS).map((path) => ({ path, method: RequestMethod.POST })));
  }
}
