import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { FleetPageClient } from './fleet-page-client.js';
import { FleetPageController } from './fleet-page.controller.js';

/** The fleet page, `GET /` (docs/fleet-page.md), and the public client it signs in as. */
@Module({
  imports: [AuthModule],
  controllers: [FleetPageController],
  providers: [FleetPageClient],
})
export class FleetPageModule {}
