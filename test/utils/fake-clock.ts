import type { TestingModuleBuilder } from '@nestjs/testing';
import { CLOCK, type Clock } from '../../src/common/time/clock.js';

/**
 * A clock that stands still until a test moves it: windows and caches can then be crossed exactly,
 * without sleeping and whatever the machine's speed. It starts at the present whole second.
 */
export class FakeClock implements Clock {
  private time = Math.floor(Date.now() / 1000) * 1000;

  now(): number {
    return this.time;
  }

  advance(milliseconds: number): void {
    this.time += milliseconds;
  }

  /** Puts this clock in place of the application's (for `createTestApp({ override })`). */
  install = (builder: TestingModuleBuilder): TestingModuleBuilder => builder.overrideProvider(CLOCK).useValue(this);
}
