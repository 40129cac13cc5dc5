import { Global, Module } from '@nestjs/common';
import { CLOCK, systemClock } from './clock.js';

/** The one clock of the application: a test that puts another in its place moves every window, cache and token with it. */
@Global()
@Module({
  providers: [{ provide: CLOCK, useValue: systemClock }],
  exports: [CLOCK],
})
export class ClockModule {}
